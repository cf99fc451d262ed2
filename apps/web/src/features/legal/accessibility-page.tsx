import Link from '@mui/material/Link';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { Page } from '../../components/page';
import { useBrand } from '../../lib/brand';
import { formatLongDate } from '../../lib/format-date';
import { useLegalInformation } from './api/legal-information';
import { Bullets, LegalLoading, LegalSection, MailLink, Paragraph } from './legal-parts';

const DEFENSEUR_FORM_URL = 'https://formulaire.defenseurdesdroits.fr/';
const DEFENSEUR_DELEGATES_URL = 'https://www.defenseurdesdroits.fr/saisir/delegues';

/**
 * The accessibility statement (RGAA 4.1 model): conformance state — not compliant, as no audit has
 * been carried out —, known limits and exemptions, how and when it was established (the date from
 * the server's configuration, LEGAL_ACCESSIBILITY_DATE), the contact to report a
 * problem and the remedies (Défenseur des droits).
 */
export default function AccessibilityPage() {
  const { t, i18n } = useTranslation();
  const { name: brand } = useBrand();
  const legal = useLegalInformation();

  return (
    <Page title={t('legal:accessibility.title')}>
      <Paragraph>{t('legal:accessibility.commitment')}</Paragraph>
      <Paragraph>{t('legal:accessibility.scope', { brand })}</Paragraph>
      <LegalSection title={t('legal:accessibility.state.heading')}>
        <Paragraph>
          <span data-testid="accessibility-state">
            {t('legal:accessibility.state.text', { brand })}
          </span>
        </Paragraph>
        <Paragraph>{t('legal:accessibility.state.work')}</Paragraph>
      </LegalSection>
      <LegalSection title={t('legal:accessibility.results.heading')}>
        <Paragraph>{t('legal:accessibility.results.text')}</Paragraph>
      </LegalSection>
      <LegalSection title={t('legal:accessibility.nonAccessible.heading')}>
        <Paragraph>{t('legal:accessibility.nonAccessible.intro')}</Paragraph>
        <Bullets
          items={[
            t('legal:accessibility.nonAccessible.automated'),
            t('legal:accessibility.nonAccessible.biometrics'),
          ]}
        />
        <Paragraph>{t('legal:accessibility.nonAccessible.derogations')}</Paragraph>
        <Paragraph>{t('legal:accessibility.nonAccessible.exempt')}</Paragraph>
      </LegalSection>
      <LegalSection title={t('legal:accessibility.establishment.heading')}>
        {legal.data && (
          <Paragraph>
            <span data-testid="accessibility-date">
              {t('legal:accessibility.establishment.date', {
                date: formatLongDate(legal.data.accessibilityDate, i18n.language),
              })}
            </span>
          </Paragraph>
        )}
        <Paragraph>{t('legal:accessibility.establishment.technologies')}</Paragraph>
        <Paragraph>{t('legal:accessibility.establishment.environment')}</Paragraph>
      </LegalSection>
      <LegalSection title={t('legal:accessibility.feedback.heading')}>
        <Paragraph>
          {t('legal:accessibility.feedback.text')}{' '}
          {legal.data && (
            <MailLink address={legal.data.contactEmail} testId="accessibility-contact" />
          )}
        </Paragraph>
        <LegalLoading pending={legal.isPending} failed={legal.isError} />
        <Paragraph>
          <Link component={RouterLink} to="/contact">
            {t('common:footer.contact')}
          </Link>
        </Paragraph>
      </LegalSection>
      <LegalSection title={t('legal:accessibility.recourse.heading')}>
        <Paragraph>{t('legal:accessibility.recourse.intro')}</Paragraph>
        <Bullets
          items={[
            <Link key="form" href={DEFENSEUR_FORM_URL} hrefLang="fr">
              {t('legal:accessibility.recourse.form')}
            </Link>,
            <Link key="delegate" href={DEFENSEUR_DELEGATES_URL} hrefLang="fr">
              {t('legal:accessibility.recourse.delegate')}
            </Link>,
            t('legal:accessibility.recourse.mail'),
          ]}
        />
      </LegalSection>
    </Page>
  );
}
