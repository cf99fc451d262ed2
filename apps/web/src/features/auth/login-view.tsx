import type { ReactNode } from 'react';
import { Page } from '../../components/page';
import { PlainAlert, PlainDivider } from '../../components/plain/alert';
import { PlainButton } from '../../components/plain/button';
import { PlainPasswordField, PlainTextField } from '../../components/plain/text-field';
import { IdentityProviderError } from '../../components/identity-provider-error';
import { AppLink, useEnvironment } from '../../lib/environment';
import { useFormState } from '../../lib/form-state';
import { useHydrated } from '../../lib/hydration';
import { validationMessage } from '../../lib/validation-message';
import { IdentityProviderLinkNotice, IdentityProviderSignIn } from './identity-provider-sign-in';
import { checkLoginForm, type LoginForm } from './login-form';

/** A password sign-in as the login page shows it: running, or failed with a message. */
export interface SignInAttempt {
  pending: boolean;
  /** What to tell of the last failure (nothing for a failure that only moves to the next step). */
  failure: string | null;
  submit(this: void, values: LoginForm): void;
}

/**
 * The login page (docs/web.md): plain elements (app/base.css), no MUI. The whole client's route
 * (login-page.tsx) and the island the browser runs first on the page the server drew
 * (app/island/) both draw it, each with its own way to sign in.
 */
export function LoginView({
  signIn,
  biometric,
}: {
  signIn: SignInAttempt;
  /** The biometric ways in, given the username typed so far. */
  biometric: (getUsername: () => string) => ReactNode;
}) {
  const { texts, useSearchParams } = useEnvironment();
  const { t } = texts;
  const params = useSearchParams();
  const hydrated = useHydrated();
  // Not react-hook-form: the first load's own small form state (lib/form-state, docs/web.md).
  const { field, handleSubmit, getValues, errors } = useFormState(checkLoginForm, {
    // A platform's login_hint, passed through the sign-in as ?username=.
    username: (params.get('username') ?? '').trim().slice(0, 255),
    password: '',
  });
  const { failure } = signIn;

  return (
    <Page title={t('login:title')}>
      <p className="hy-text-intro">{t('login:intro')}</p>
      {params.get('expired') === '1' && !failure && (
        <PlainAlert severity="info" role="status" className="hy-mb-3" data-testid="session-expired">
          {t('errors:session_expired')}
        </PlainAlert>
      )}
      {!failure && <IdentityProviderError />}
      {!failure && <IdentityProviderLinkNotice />}
      {failure && (
        <PlainAlert severity="error" className="hy-mb-3" data-testid="login-error">
          {failure}
        </PlainAlert>
      )}
      <form
        noValidate
        onSubmit={handleSubmit((values) => signIn.submit(values))}
        aria-labelledby="page-title"
      >
        {/* Drawn by the server first (app/server-render.tsx): usable once the page's code runs, so
            nothing typed before is lost and the browser never submits the form by itself. */}
        <fieldset disabled={!hydrated} className="hy-fieldset hy-stack">
          <PlainTextField
            id="login-username"
            label={t('login:username')}
            helperText={
              validationMessage(texts, errors.username?.message) ?? t('login:usernameHelp')
            }
            error={!!errors.username}
            required
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            maxLength={180}
            {...field('username')}
          />
          <PlainPasswordField
            id="login-password"
            label={t('login:password')}
            helperText={validationMessage(texts, errors.password?.message)}
            error={!!errors.password}
            required
            autoComplete="current-password"
            {...field('password')}
          />
          <AppLink to="/security/forgot-password" className="hy-link hy-start">
            {t('login:forgotPassword')}
          </AppLink>
          <PlainButton
            type="submit"
            variant="contained"
            size="large"
            fullWidth
            loading={signIn.pending}
            data-testid="login-submit"
          >
            {t('login:submit')}
          </PlainButton>
        </fieldset>
      </form>
      {biometric(() => getValues().username)}
      <IdentityProviderSignIn />
      <PlainDivider />
      <p className="hy-text">
        {t('login:noAccount')}{' '}
        <AppLink to="/security/register" className="hy-link">
          {t('login:register')}
        </AppLink>
      </p>
    </Page>
  );
}
