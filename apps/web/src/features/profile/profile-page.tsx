import { PlaceholderPage } from '../../components/placeholder-page';

export default function ProfilePage() {
  return (
    <PlaceholderPage
      titleKey="account:profile.title"
      descriptionKey="account:profile.description"
    />
  );
}
