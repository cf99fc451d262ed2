import { PlaceholderPage } from '../../components/placeholder-page';

export default function AcceptCguPage() {
  return (
    <PlaceholderPage
      titleKey="security:acceptCgu.title"
      descriptionKey="security:acceptCgu.description"
    />
  );
}
