import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { Page } from '../../components/page';
import { PlainAlert, PlainDivider } from '../../components/plain/alert';
import { PlainButton } from '../../components/plain/button';
import { PlainPasswordField, PlainTextField } from '../../components/plain/text-field';
import { usePublicConfig } from '../../lib/config';
import { IdentityProviderError } from '../../components/identity-provider-error';
import { errorMessage } from '../../lib/error-message';
import { useFormState } from '../../lib/form-state';
import { useHydrated } from '../../lib/hydration';
import { isPendingStage } from '../../lib/sign-in';
import { validationMessage } from '../../lib/validation-message';
import { useLogin } from './api/login';
import { BiometricSignIn } from './biometric-sign-in';
import { IdentityProviderLinkNotice, IdentityProviderSignIn } from './identity-provider-sign-in';
import { loginFormSchema, type LoginForm } from './login-form';

/**
 * The first screen most visits open: plain elements (app/base.css), no MUI, so its first load
 * carries neither MUI nor its styling engine (docs/web.md).
 */
export default function LoginPage() {
  const { t, i18n } = useTranslation();
  const [params] = useSearchParams();
  const config = usePublicConfig();
  const login = useLogin();
  const hydrated = useHydrated();
  // Not react-hook-form: the first load's own small form state (lib/form-state, docs/web.md).
  const { field, handleSubmit, getValues, errors } = useFormState(loginFormSchema, {
    // A platform's login_hint, passed through the sign-in as ?username=.
    username: (params.get('username') ?? '').trim().slice(0, 255),
    password: '',
  });

  const failure =
    login.isError && !isPendingStage(login.error)
      ? errorMessage(i18n, login.error, { contactEmail: config?.contactEmail ?? '' })
      : null;

  const onSubmit = handleSubmit((values: LoginForm) => {
    login.mutate(values);
  });

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
      <form noValidate onSubmit={onSubmit} aria-labelledby="page-title">
        {/* Drawn by the server first (app/server-render.tsx): usable once the page's code runs, so
            nothing typed before is lost and the browser never submits the form by itself. */}
        <fieldset disabled={!hydrated} className="hy-fieldset hy-stack">
          <PlainTextField
            id="login-username"
            label={t('login:username')}
            helperText={
              validationMessage(i18n, errors.username?.message) ?? t('login:usernameHelp')
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
            helperText={validationMessage(i18n, errors.password?.message)}
            error={!!errors.password}
            required
            autoComplete="current-password"
            {...field('password')}
          />
          <RouterLink to="/security/forgot-password" className="hy-link hy-start">
            {t('login:forgotPassword')}
          </RouterLink>
          <PlainButton
            type="submit"
            variant="contained"
            size="large"
            fullWidth
            loading={login.isPending}
            data-testid="login-submit"
          >
            {t('login:submit')}
          </PlainButton>
        </fieldset>
      </form>
      <BiometricSignIn getUsername={() => getValues().username} />
      <IdentityProviderSignIn />
      <PlainDivider />
      <p className="hy-text">
        {t('login:noAccount')}{' '}
        <RouterLink to="/security/register" className="hy-link">
          {t('login:register')}
        </RouterLink>
      </p>
    </Page>
  );
}
