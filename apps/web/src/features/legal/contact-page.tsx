import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { Page } from '../../components/page';
import { useSupportContact } from './api/support';
import { Fact, Facts, LegalLoading, LegalSection, MailLink, Paragraph } from './legal-parts';

function isWebUrl(value: string): boolean {
  return /^https?:\/\//i.test(value);
}

/** The operator's support contact (GET /api/support, from configuration), open to everyone. */
export default function ContactPage() {
  const { t } = useTranslation();
  const support = useSupportContact();
  const data = support.data;
  const links = data?.usefulLinks.filter((link) => isWebUrl(link.url)) ?? [];

  return (
    <Page title={t('legal:contact.title')}>
      <Paragraph>{t('legal:contact.intro')}</Paragraph>
      <LegalLoading pending={support.isPending} failed={support.isError} />
      {data && (
        <Facts>
          <Fact label={t('legal:contact.name')} value={data.contact} testId="contact-name" />
          <Fact
            label={t('legal:contact.email')}
            value={<MailLink address={data.mail} testId="contact-email" />}
          />
          {data.phone && (
            <Fact
              label={t('legal:contact.phone')}
              value={
                <Link href={`tel:${data.phone.replace(/\s+/g, '')}`}>
                  <bdi>{data.phone}</bdi>
                </Link>
              }
            />
          )}
          {data.website && isWebUrl(data.website) && (
            <Fact
              label={t('legal:contact.website')}
              value={
                <Link href={data.website}>
                  <bdi>{data.website}</bdi>
                </Link>
              }
            />
          )}
          {data.headOffice && <Fact label={t('legal:contact.address')} value={data.headOffice} />}
        </Facts>
      )}
      {links.length > 0 && (
        <LegalSection title={t('legal:contact.links')}>
          <Box component="ul" sx={{ mt: 0, pl: 3 }}>
            {links.map((link) => (
              <li key={link.url}>
                <Link href={link.url}>{link.label}</Link>
              </li>
            ))}
          </Box>
        </LegalSection>
      )}
      <Paragraph>
        <Link component={RouterLink} to="/privacy">
          {t('legal:contact.personalData')}
        </Link>
      </Paragraph>
    </Page>
  );
}
