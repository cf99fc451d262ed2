import { PlaceholderPage } from '../../components/placeholder-page';

export default function RegisterProfessionalPage() {
  return (
    <PlaceholderPage
      titleKey="security:registerProfessional.title"
      descriptionKey="security:registerProfessional.description"
    />
  );
}
