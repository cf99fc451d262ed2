import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Page } from './page';

export interface PlaceholderPageProps {
  /** Full keys (`namespace:key`) of the title and the introductory sentence. */
  titleKey: string;
  descriptionKey: string;
}

/** A screen whose full content comes later: its title and what it is for. */
export function PlaceholderPage({ titleKey, descriptionKey }: PlaceholderPageProps) {
  const { t } = useTranslation();
  return (
    <Page title={t(titleKey)}>
      <Typography>{t(descriptionKey)}</Typography>
    </Page>
  );
}
