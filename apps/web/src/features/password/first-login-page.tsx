import { PlaceholderPage } from '../../components/placeholder-page';

export default function FirstLoginPage() {
  return (
    <PlaceholderPage
      titleKey="security:firstLogin.title"
      descriptionKey="security:firstLogin.description"
    />
  );
}
