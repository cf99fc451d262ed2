import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { Page } from '../../components/page';
import { useBrand } from '../../lib/brand';
import { useLegalInformation } from './api/legal-information';
import { Bullets, Fact, Facts, LegalLoading, LegalSection, Paragraph } from './legal-parts';

const PURPOSES = ['account', 'security', 'health', 'messages'] as const;
const DATA = [
  'identity',
  'contact',
  'health',
  'credentials',
  'consents',
  'devices',
  'audit',
] as const;
const RECIPIENTS = ['staff', 'host', 'services', 'messaging'] as const;

const CNIL_COMPLAINT_URL = 'https://www.cnil.fr/fr/adresser-une-plainte';

/**
 * The personal-data policy (GDPR): controller, purposes and legal bases, data, retention (the
 * periods in force), recipients, rights and where to exercise them, DPO, complaint to the CNIL.
 */
export default function PrivacyPage() {
  const { t } = useTranslation();
  const { name: brand } = useBrand();
  const legal = useLegalInformation();
  const data = legal.data;

  return (
    <Page title={t('legal:privacy.title')}>
      <Paragraph>{t('legal:privacy.intro', { brand })}</Paragraph>
      <LegalLoading pending={legal.isPending} failed={legal.isError} />
      {data && (
        <LegalSection title={t('legal:privacy.controller.heading')}>
          <Paragraph>{t('legal:privacy.controller.text')}</Paragraph>
          <Facts>
            <Fact
              label={t('legal:legalNotice.publisher.name')}
              value={data.publisher.name}
              testId="privacy-controller"
            />
            <Fact label={t('legal:legalNotice.publisher.address')} value={data.publisher.address} />
          </Facts>
        </LegalSection>
      )}
      <LegalSection title={t('legal:privacy.purposes.heading')}>
        {PURPOSES.map((purpose) => (
          <Box key={purpose} sx={{ mb: 2 }}>
            <Facts>
              <Fact
                label={t('legal:privacy.purposes.purpose')}
                value={t(`legal:privacy.purposes.${purpose}.purpose`)}
              />
              <Fact
                label={t('legal:privacy.purposes.basis')}
                value={t(`legal:privacy.purposes.${purpose}.basis`)}
              />
            </Facts>
          </Box>
        ))}
      </LegalSection>
      <LegalSection title={t('legal:privacy.data.heading')}>
        <Bullets items={DATA.map((item) => t(`legal:privacy.data.${item}`))} />
      </LegalSection>
      {data && (
        <LegalSection title={t('legal:privacy.retention.heading')}>
          <Bullets
            items={[
              t('legal:privacy.retention.account'),
              t('legal:privacy.retention.sessions'),
              <span key="devices" data-testid="privacy-retention-devices">
                {t('legal:privacy.retention.devices', { count: data.retention.trustedDeviceDays })}
              </span>,
              t('legal:privacy.retention.codes'),
              t('legal:privacy.retention.messages'),
              <span key="audit" data-testid="privacy-retention-audit">
                {t('legal:privacy.retention.audit', { count: data.retention.auditDays })}
              </span>,
            ]}
          />
        </LegalSection>
      )}
      <LegalSection title={t('legal:privacy.recipients.heading')}>
        <Bullets items={RECIPIENTS.map((item) => t(`legal:privacy.recipients.${item}`))} />
      </LegalSection>
      <LegalSection title={t('legal:privacy.rights.heading')}>
        <Paragraph>{t('legal:privacy.rights.intro')}</Paragraph>
        <Bullets
          items={[
            t('legal:privacy.rights.access'),
            t('legal:privacy.rights.erasure'),
            t('legal:privacy.rights.rectification'),
          ]}
        />
        <Typography sx={{ mb: 1.5, display: 'flex', flexWrap: 'wrap', columnGap: 2 }}>
          <span>{t('legal:seeAlso')}</span>
          <Link component={RouterLink} to="/profile">
            {t('legal:privacy.rights.profileLink')}
          </Link>
          <Link component={RouterLink} to="/profile/update">
            {t('legal:privacy.rights.editLink')}
          </Link>
        </Typography>
        <Paragraph>{t('legal:privacy.rights.other')}</Paragraph>
      </LegalSection>
      {data && (
        <LegalSection title={t('legal:privacy.dpo.heading')}>
          <Facts>
            <Fact
              label={t('legal:privacy.dpo.label')}
              value={data.dpoContact}
              testId="privacy-dpo"
            />
          </Facts>
        </LegalSection>
      )}
      <LegalSection title={t('legal:privacy.complaint.heading')}>
        <Paragraph>{t('legal:privacy.complaint.text')}</Paragraph>
        <Paragraph>
          <Link href={CNIL_COMPLAINT_URL} hrefLang="fr">
            {t('legal:privacy.complaint.link')}
          </Link>
        </Paragraph>
      </LegalSection>
      <LegalSection title={t('legal:privacy.cookies.heading')}>
        <Paragraph>{t('legal:privacy.cookies.text')}</Paragraph>
      </LegalSection>
    </Page>
  );
}
