import { PlaceholderPage } from '../../components/placeholder-page';

export default function LockAccountPage() {
  return (
    <PlaceholderPage
      titleKey="security:lockAccount.title"
      descriptionKey="security:lockAccount.description"
    />
  );
}
