import { PlaceholderPage } from '../../components/placeholder-page';

export default function ServicesPage() {
  return (
    <PlaceholderPage
      titleKey="account:services.title"
      descriptionKey="account:services.description"
    />
  );
}
