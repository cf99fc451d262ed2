import { PlaceholderPage } from '../../components/placeholder-page';

export default function ForgotPasswordPage() {
  return (
    <PlaceholderPage
      titleKey="security:forgotPassword.title"
      descriptionKey="security:forgotPassword.description"
    />
  );
}
