import { PlaceholderPage } from '../../components/placeholder-page';

export default function BiometricsPage() {
  return (
    <PlaceholderPage
      titleKey="security:biometrics.title"
      descriptionKey="security:biometrics.description"
    />
  );
}
