import { PlaceholderPage } from '../../components/placeholder-page';

export default function RegisterPage() {
  return (
    <PlaceholderPage
      titleKey="security:register.title"
      descriptionKey="security:register.description"
    />
  );
}
