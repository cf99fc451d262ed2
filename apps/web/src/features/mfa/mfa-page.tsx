import { PlaceholderPage } from '../../components/placeholder-page';

export default function MfaPage() {
  return (
    <PlaceholderPage titleKey="security:mfa.title" descriptionKey="security:mfa.description" />
  );
}
