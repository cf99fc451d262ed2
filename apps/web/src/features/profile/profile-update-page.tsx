import { PlaceholderPage } from '../../components/placeholder-page';

export default function ProfileUpdatePage() {
  return (
    <PlaceholderPage
      titleKey="account:profileUpdate.title"
      descriptionKey="account:profileUpdate.description"
    />
  );
}
