import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { FormStatus } from '../../components/form-error';
import { Page } from '../../components/page';
import { RedirectNotice } from '../../components/redirect-notice';

/**
 * The account was created: check the e-mail for the verification code; a professional's
 * identity is verified before they can sign in. Moves on to login after 5 seconds.
 */
export default function RegisterSuccessPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  // Validated by the provider (Pro Santé Connect asserted the RPPS): no wait to announce.
  const professional = params.get('profile') === 'professional' && params.get('validated') !== '1';
  return (
    <Page title={t('security:registerSuccess.title')}>
      <Box data-testid="register-success">
        <FormStatus severity="success">{t('security:registerSuccess.created')}</FormStatus>
        <Typography sx={{ mb: 2 }}>{t('security:registerSuccess.checkEmail')}</Typography>
        {professional && (
          <Typography sx={{ mb: 2 }}>{t('security:registerSuccess.professional')}</Typography>
        )}
        <RedirectNotice to="/security/login" />
      </Box>
    </Page>
  );
}
