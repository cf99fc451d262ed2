import { useMemo, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { FormError } from '../../components/form-error';
import { NewPasswordFields } from '../../components/new-password-fields';
import { Page } from '../../components/page';
import { ApiError } from '../../lib/api-client';
import { usePublicConfig } from '../../lib/config';
import { errorMessage, isolate } from '../../lib/error-message';
import { withFlowParams } from '../../lib/flow-params';
import { applyServerErrors, PASSWORD_CODE_FIELDS } from '../../lib/form-errors';
import { newPasswordFields, type NewPasswordValues } from '../../lib/form-schemas';
import { voidHandler } from '../../lib/handlers';
import { useServices } from '../../lib/services';
import { useCreateFirstPassword } from './api/create-first-password';
import { useFirstLoginInfo, type FirstLoginInfo, type FirstLoginLink } from './api/get-first-login';

/** The invitation link's parameters, or null when one is missing. */
function linkOf(params: URLSearchParams): FirstLoginLink | null {
  const personIdentifier = params.get('personIdentifier')?.trim() ?? '';
  const email = params.get('email')?.trim() ?? '';
  const code = params.get('code')?.trim() ?? '';
  return personIdentifier && email && code ? { personIdentifier, email, code } : null;
}

/** The link cannot be used (expired, used already, or cut): what to do instead. */
function LinkUnusable() {
  const { t } = useTranslation();
  const config = usePublicConfig();
  return (
    <>
      <FormError>{t('security:firstLogin.linkExpired')}</FormError>
      <Typography sx={{ mb: 3 }}>
        {t('security:firstLogin.linkExpiredHelp', {
          contactEmail: isolate(config?.contactEmail ?? ''),
        })}
      </Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5 }}>
        <Button component={RouterLink} to="/security/login" variant="contained">
          {t('security:firstLogin.goToLogin')}
        </Button>
        <Button component={RouterLink} to="/security/forgot-password">
          {t('login:forgotPassword')}
        </Button>
      </Box>
    </>
  );
}

function PasswordForm({ link, info }: { link: FirstLoginLink; info: FirstLoginInfo }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const { notifications } = useServices();
  const create = useCreateFirstPassword();
  const [failure, setFailure] = useState<unknown>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<NewPasswordValues>({
    resolver: zodResolver(newPasswordFields),
    defaultValues: { password: '', passwordConfirmation: '' },
  });

  const onSubmit = handleSubmit((values) => {
    setFailure(null);
    create.mutate(
      { ...link, ...values },
      {
        onSuccess: () => {
          notifications.notify(t('security:firstLogin.success'), 'success');
          // Back to login, keeping where the invitation was heading (redirect / target_uri).
          void navigate(withFlowParams('/security/login', `?${params.toString()}`));
        },
        onError: (error) => {
          const fields = ['password', 'passwordConfirmation'] as const;
          if (!applyServerErrors(error, setError, fields, PASSWORD_CODE_FIELDS)) {
            setFailure(error);
          }
        },
      },
    );
  });

  if (failure instanceof ApiError && failure.code === 'link_expired') return <LinkUnusable />;
  return (
    <>
      <Typography sx={{ mb: 1 }}>
        {info.firstName
          ? t('security:firstLogin.greeting', { name: info.firstName })
          : t('security:firstLogin.greetingNoName')}
      </Typography>
      <Typography sx={{ mb: 3 }}>
        {t('security:firstLogin.intro', { email: isolate(info.email) })}
      </Typography>
      <FormError>{failure ? errorMessage(i18n, failure) : null}</FormError>
      <Box
        component="form"
        noValidate
        onSubmit={voidHandler(onSubmit)}
        aria-labelledby="page-title"
        sx={{ display: 'flex', flexDirection: 'column', gap: 2.5 }}
      >
        <TextField
          id="first-login-email"
          label={t('security:firstLogin.email')}
          value={info.email}
          fullWidth
          autoComplete="username"
          slotProps={{ htmlInput: { readOnly: true, dir: 'ltr' } }}
        />
        <NewPasswordFields
          idPrefix="first-login"
          password={register('password')}
          confirmation={register('passwordConfirmation')}
          passwordError={errors.password?.message}
          confirmationError={errors.passwordConfirmation?.message}
        />
        <Button
          type="submit"
          variant="contained"
          size="large"
          fullWidth
          loading={create.isPending}
          data-testid="first-login-submit"
        >
          {t('security:firstLogin.submit')}
        </Button>
      </Box>
    </>
  );
}

/** First login from an invitation: greet the person, who creates a password, then signs in. */
export default function FirstLoginPage() {
  const { t, i18n } = useTranslation();
  const [params] = useSearchParams();
  const link = useMemo(() => linkOf(params), [params]);
  const info = useFirstLoginInfo(link);

  let content;
  if (!link) content = <LinkUnusable />;
  else if (info.data) content = <PasswordForm link={link} info={info.data} />;
  else if (info.isError) {
    content =
      info.error instanceof ApiError &&
      (info.error.code === 'link_expired' || info.error.code === 'validation_error') ? (
        <LinkUnusable />
      ) : (
        <FormError>{errorMessage(i18n, info.error)}</FormError>
      );
  } else content = <Typography role="status">{t('common:loading')}</Typography>;

  return <Page title={t('security:firstLogin.title')}>{content}</Page>;
}
