import { PlaceholderPage } from '../../components/placeholder-page';

export default function AppSettingsPage() {
  return (
    <PlaceholderPage
      titleKey="account:appSettings.title"
      descriptionKey="account:appSettings.description"
    />
  );
}
