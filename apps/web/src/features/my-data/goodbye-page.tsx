import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useEffect } from 'react';
import { Link as RouterLink, useLocation } from 'react-router';
import { FormStatus } from '../../components/form-error';
import { Page } from '../../components/page';
import { isDeletedState, useForgetUser } from './api';

/**
 * After "Delete my account": the account is gone, the person told by e-mail. Reached from the
 * deletion, the app signs out here (the server already ended the session and cleared its cookie).
 */
export default function GoodbyePage() {
  const { t } = useTranslation();
  const location = useLocation();
  const forget = useForgetUser();
  const deleted = isDeletedState(location.state);
  useEffect(() => {
    if (deleted) forget();
  }, [deleted, forget]);
  return (
    <Page title={t('my-data:goodbye.title')}>
      <FormStatus severity="success" data-testid="goodbye">
        {t('my-data:goodbye.done')}
      </FormStatus>
      <Typography sx={{ mb: 1 }}>{t('my-data:goodbye.email')}</Typography>
      <Typography sx={{ mb: 3 }}>{t('my-data:goodbye.kept')}</Typography>
      <Button component={RouterLink} to="/security/login" variant="contained">
        {t('my-data:goodbye.signIn')}
      </Button>
    </Page>
  );
}
