import { PlaceholderPage } from '../../components/placeholder-page';

export default function PasswordRenewalSuccessPage() {
  return (
    <PlaceholderPage
      titleKey="security:passwordRenewalSuccess.title"
      descriptionKey="security:passwordRenewalSuccess.description"
    />
  );
}
