import { useTranslation } from 'react-i18next';
import { Page } from '../../components/page';
import { useBrand } from '../../lib/brand';
import { useLegalInformation } from './api/legal-information';
import { Fact, Facts, LegalLoading, LegalSection, MailLink, Paragraph } from './legal-parts';

/** Mentions légales: publisher, director of publication, health-data host, contact (public). */
export default function LegalNoticePage() {
  const { t } = useTranslation();
  const { name: brand } = useBrand();
  const legal = useLegalInformation();
  const data = legal.data;

  return (
    <Page title={t('legal:legalNotice.title')}>
      <Paragraph>{t('legal:legalNotice.intro', { brand })}</Paragraph>
      <LegalLoading pending={legal.isPending} failed={legal.isError} />
      {data && (
        <>
          <LegalSection title={t('legal:legalNotice.publisher.heading')}>
            <Facts>
              <Fact
                label={t('legal:legalNotice.publisher.name')}
                value={data.publisher.name}
                testId="legal-publisher"
              />
              <Fact
                label={t('legal:legalNotice.publisher.address')}
                value={data.publisher.address}
              />
              <Fact
                label={t('legal:legalNotice.publisher.registration')}
                value={data.publisher.registration}
              />
            </Facts>
          </LegalSection>
          <LegalSection title={t('legal:legalNotice.director.heading')}>
            <Facts>
              <Fact
                label={t('legal:legalNotice.director.name')}
                value={data.publicationDirector}
                testId="legal-director"
              />
            </Facts>
          </LegalSection>
          <LegalSection title={t('legal:legalNotice.host.heading')}>
            <Paragraph>{t('legal:legalNotice.host.intro')}</Paragraph>
            <Facts>
              <Fact
                label={t('legal:legalNotice.host.name')}
                value={data.host.name}
                testId="legal-host"
              />
              <Fact label={t('legal:legalNotice.host.address')} value={data.host.address} />
              <Fact
                label={t('legal:legalNotice.host.certificate')}
                value={data.host.hdsCertificate}
              />
            </Facts>
          </LegalSection>
          <LegalSection title={t('legal:legalNotice.contact.heading')}>
            <Paragraph>
              {t('legal:legalNotice.contact.text')}{' '}
              <MailLink address={data.contactEmail} testId="legal-contact-email" />
            </Paragraph>
          </LegalSection>
        </>
      )}
    </Page>
  );
}
