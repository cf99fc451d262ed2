import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { FormError } from '../../components/form-error';
import { Page } from '../../components/page';
import { ApiError } from '../../lib/api-client';
import { errorMessage } from '../../lib/error-message';
import { useLockAccount } from './api/lock-account';

/**
 * "Not you? Lock your account" (`?email=&code=` from a sign-in or password-changed notice):
 * explains, asks for confirmation, locks, then shows the locked page.
 */
export default function LockAccountPage() {
  const { t, i18n } = useTranslation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const lock = useLockAccount();
  const email = params.get('email')?.trim() ?? '';
  const code = params.get('code')?.trim() ?? '';
  const complete = !!email && !!code;

  const confirm = () => {
    lock.mutate(
      { email, code },
      {
        onSuccess: ({ username }) => {
          void navigate(
            `/security/account-locked?${new URLSearchParams({ username }).toString()}`,
            {
              replace: true,
            },
          );
        },
      },
    );
  };

  const expired =
    lock.error instanceof ApiError &&
    (lock.error.code === 'link_expired' || lock.error.code === 'validation_error');

  return (
    <Page title={t('security:lockAccount.title')}>
      {!complete || expired ? (
        <>
          <FormError>{t('security:lockAccount.linkExpired')}</FormError>
          <Typography sx={{ mb: 3 }}>{t('security:lockAccount.linkExpiredHelp')}</Typography>
          <Button component={RouterLink} to="/security/login" variant="outlined">
            {t('common:actions.backToLogin')}
          </Button>
        </>
      ) : (
        <>
          <Typography sx={{ mb: 2 }}>{t('security:lockAccount.intro')}</Typography>
          <Typography component="h2" variant="h6" sx={{ mb: 1 }}>
            {t('security:lockAccount.consequencesTitle')}
          </Typography>
          <Box component="ul" sx={{ mt: 0, mb: 3, ps: 3 }}>
            <li>{t('security:lockAccount.consequences.sessions')}</li>
            <li>{t('security:lockAccount.consequences.devices')}</li>
            <li>{t('security:lockAccount.consequences.signIn')}</li>
            <li>{t('security:lockAccount.consequences.unlock')}</li>
          </Box>
          <FormError>{lock.isError ? errorMessage(i18n, lock.error) : null}</FormError>
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5 }}>
            <Button
              variant="contained"
              color="error"
              size="large"
              loading={lock.isPending}
              onClick={confirm}
              data-testid="lock-confirm"
            >
              {t('security:lockAccount.confirm')}
            </Button>
            <Button component={RouterLink} to="/" size="large">
              {t('security:lockAccount.cancel')}
            </Button>
          </Box>
        </>
      )}
    </Page>
  );
}
