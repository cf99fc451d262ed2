import { PlaceholderPage } from '../../components/placeholder-page';

export default function VerifyMobilePhonePage() {
  return (
    <PlaceholderPage
      titleKey="security:verifyMobilePhone.title"
      descriptionKey="security:verifyMobilePhone.description"
    />
  );
}
