import { useTranslation } from 'react-i18next';
import { FormStatus } from '../../components/form-error';
import { Page } from '../../components/page';
import { RedirectNotice } from '../../components/redirect-notice';

/** The password was reset: every session ended; sign in with the new password. */
export default function ForgotPasswordSuccessPage() {
  const { t } = useTranslation();
  return (
    <Page title={t('security:forgotPasswordSuccess.title')}>
      <FormStatus severity="success" data-testid="forgot-success">
        {t('security:forgotPasswordSuccess.description')}
      </FormStatus>
      <RedirectNotice to="/security/login" />
    </Page>
  );
}
