import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';

/**
 * Shown by a sign-in step screen (MFA, phone, terms, password renewal) opened without a sign-in
 * at that step: the step needs the session the password opened.
 */
export function SignInStepMissing() {
  const { t } = useTranslation();
  return (
    <>
      <Alert severity="info" sx={{ mb: 3 }}>
        {t('common:signInStep.missing')}
      </Alert>
      <Button component={RouterLink} to="/security/login" variant="contained">
        {t('common:signInStep.signIn')}
      </Button>
    </>
  );
}
