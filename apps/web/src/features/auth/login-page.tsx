import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Link from '@mui/material/Link';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { Page } from '../../components/page';
import { PasswordField } from '../../components/password-field';
import { usePublicConfig } from '../../lib/config';
import { IdentityProviderError } from '../../components/identity-provider-error';
import { errorMessage } from '../../lib/error-message';
import { registeredField, voidHandler } from '../../lib/handlers';
import { isPendingStage } from '../../lib/sign-in';
import { validationMessage } from '../../lib/validation-message';
import { useLogin } from './api/login';
import { BiometricSignIn } from './biometric-sign-in';
import { IdentityProviderLinkNotice, IdentityProviderSignIn } from './identity-provider-sign-in';
import { loginFormSchema, type LoginForm } from './login-form';

export default function LoginPage() {
  const { t, i18n } = useTranslation();
  const [params] = useSearchParams();
  const config = usePublicConfig();
  const login = useLogin();
  const {
    register,
    handleSubmit,
    getValues,
    formState: { errors },
  } = useForm<LoginForm>({
    resolver: zodResolver(loginFormSchema),
    // A platform's login_hint, passed through the sign-in as ?username=.
    defaultValues: { username: (params.get('username') ?? '').trim().slice(0, 255), password: '' },
  });
  const username = register('username');
  const password = register('password');

  const failure =
    login.isError && !isPendingStage(login.error)
      ? errorMessage(i18n, login.error, { contactEmail: config?.contactEmail ?? '' })
      : null;

  const onSubmit = handleSubmit((values) => {
    login.mutate(values);
  });

  return (
    <Page title={t('security:login.title')}>
      <Typography sx={{ mb: 3 }}>{t('security:login.intro')}</Typography>
      {params.get('expired') === '1' && !failure && (
        <Alert severity="info" role="status" sx={{ mb: 3 }} data-testid="session-expired">
          {t('errors:session_expired')}
        </Alert>
      )}
      {!failure && <IdentityProviderError />}
      {!failure && <IdentityProviderLinkNotice />}
      {failure && (
        <Alert severity="error" sx={{ mb: 3 }} data-testid="login-error">
          {failure}
        </Alert>
      )}
      <Box
        component="form"
        noValidate
        onSubmit={voidHandler(onSubmit)}
        aria-labelledby="page-title"
        sx={{ display: 'flex', flexDirection: 'column', gap: 2.5 }}
      >
        <TextField
          id="login-username"
          label={t('security:login.username')}
          helperText={
            validationMessage(i18n, errors.username?.message) ?? t('security:login.usernameHelp')
          }
          error={!!errors.username}
          required
          fullWidth
          autoComplete="username"
          {...registeredField(username)}
          slotProps={{
            htmlInput: { autoCapitalize: 'none', spellCheck: false, maxLength: 180 },
          }}
        />
        <PasswordField
          id="login-password"
          label={t('security:login.password')}
          helperText={validationMessage(i18n, errors.password?.message)}
          error={!!errors.password}
          required
          fullWidth
          autoComplete="current-password"
          {...registeredField(password)}
        />
        <Link
          component={RouterLink}
          to="/security/forgot-password"
          sx={{ alignSelf: 'flex-start' }}
        >
          {t('security:login.forgotPassword')}
        </Link>
        <Button
          type="submit"
          variant="contained"
          size="large"
          fullWidth
          loading={login.isPending}
          data-testid="login-submit"
        >
          {t('security:login.submit')}
        </Button>
      </Box>
      <BiometricSignIn getUsername={() => getValues('username')} />
      <IdentityProviderSignIn />
      <Divider sx={{ my: 3 }} />
      <Typography>
        {t('security:login.noAccount')}{' '}
        <Link component={RouterLink} to="/security/register">
          {t('security:login.register')}
        </Link>
      </Typography>
    </Page>
  );
}
