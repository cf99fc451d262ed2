import { PlaceholderPage } from '../../components/placeholder-page';

export default function DevicesPage() {
  return (
    <PlaceholderPage
      titleKey="account:devices.title"
      descriptionKey="account:devices.description"
    />
  );
}
