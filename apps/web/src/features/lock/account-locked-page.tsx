import { PlaceholderPage } from '../../components/placeholder-page';

export default function AccountLockedPage() {
  return (
    <PlaceholderPage
      titleKey="security:accountLocked.title"
      descriptionKey="security:accountLocked.description"
    />
  );
}
