import { PlaceholderPage } from '../../components/placeholder-page';

export default function ForgotPasswordSuccessPage() {
  return (
    <PlaceholderPage
      titleKey="security:forgotPasswordSuccess.title"
      descriptionKey="security:forgotPasswordSuccess.description"
    />
  );
}
