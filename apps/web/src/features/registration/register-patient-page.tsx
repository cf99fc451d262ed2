import { PlaceholderPage } from '../../components/placeholder-page';

export default function RegisterPatientPage() {
  return (
    <PlaceholderPage
      titleKey="security:registerPatient.title"
      descriptionKey="security:registerPatient.description"
    />
  );
}
