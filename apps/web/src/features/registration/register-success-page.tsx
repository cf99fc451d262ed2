import { PlaceholderPage } from '../../components/placeholder-page';

export default function RegisterSuccessPage() {
  return (
    <PlaceholderPage
      titleKey="security:registerSuccess.title"
      descriptionKey="security:registerSuccess.description"
    />
  );
}
