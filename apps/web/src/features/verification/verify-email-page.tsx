import { PlaceholderPage } from '../../components/placeholder-page';

export default function VerifyEmailPage() {
  return (
    <PlaceholderPage
      titleKey="security:verifyEmail.title"
      descriptionKey="security:verifyEmail.description"
    />
  );
}
