import type { LegalInformation } from '@hygie/domain';
import type { AppContext } from '../../context.js';
import { loadSettings } from '../settings/service.js';

const DAY_SECONDS = 24 * 3600;

/**
 * The legal notice's and personal-data policy's facts: the operator's organisation from
 * configuration, and the retention periods in force (settings an admin may change).
 */
export async function legalInformation(ctx: AppContext): Promise<LegalInformation> {
  const { legal, contactEmail } = ctx.config;
  const settings = await loadSettings(ctx);
  return {
    publisher: {
      name: legal.publisherName,
      address: legal.publisherAddress,
      registration: legal.publisherRegistration,
    },
    publicationDirector: legal.publicationDirector,
    host: {
      name: legal.hostName,
      address: legal.hostAddress,
      hdsCertificate: legal.hostHdsCertificate,
    },
    dpoContact: legal.dpoContact,
    accessibilityDate: legal.accessibilityDate,
    contactEmail,
    retention: {
      auditDays: Math.round(settings.AUDIT_RETENTION / DAY_SECONDS),
      trustedDeviceDays: settings.TRUSTED_DEVICE_DAYS,
    },
  };
}
