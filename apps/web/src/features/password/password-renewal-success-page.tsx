import { useTranslation } from 'react-i18next';
import { FormStatus } from '../../components/form-error';
import { Page } from '../../components/page';
import { RedirectNotice } from '../../components/redirect-notice';

/** The password was changed: sign in with it (the page moves on to login by itself). */
export default function PasswordRenewalSuccessPage() {
  const { t } = useTranslation();
  return (
    <Page title={t('security:passwordRenewalSuccess.title')}>
      <FormStatus severity="success" data-testid="renewal-success">
        {t('security:passwordRenewalSuccess.description')}
      </FormStatus>
      <RedirectNotice to="/security/login" />
    </Page>
  );
}
