import { PlaceholderPage } from '../../components/placeholder-page';

export default function PasswordRenewalPage() {
  return (
    <PlaceholderPage
      titleKey="security:passwordRenewal.title"
      descriptionKey="security:passwordRenewal.description"
    />
  );
}
