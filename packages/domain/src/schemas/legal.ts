import { z } from 'zod';

/**
 * GET /api/legal: who publishes and hosts the portal, who answers for personal data, and how
 * long the data is kept, for the legal notice and the personal-data policy (public). An unset
 * value is null: the pages say it is not configured.
 */
export const legalInformationSchema = z.object({
  publisher: z.object({
    name: z.string().nullable(),
    address: z.string().nullable(),
    /** Company or establishment registration (SIREN, FINESS…). */
    registration: z.string().nullable(),
  }),
  publicationDirector: z.string().nullable(),
  host: z.object({
    name: z.string().nullable(),
    address: z.string().nullable(),
    /** The health-data host certification (HDS) reference. */
    hdsCertificate: z.string().nullable(),
  }),
  /** How to reach the data protection officer (an e-mail or postal address). */
  dpoContact: z.string().nullable(),
  /** The day the accessibility statement was drawn up (LEGAL_ACCESSIBILITY_DATE), YYYY-MM-DD. */
  accessibilityDate: z.string(),
  /** The support address (CONTACT_EMAIL), also for accessibility problems. */
  contactEmail: z.string(),
  retention: z.object({
    /** Days the audit trail (sign-ins, changes, with addresses) is kept. */
    auditDays: z.number(),
    /** Days a trusted browser is remembered. */
    trustedDeviceDays: z.number(),
  }),
});
export type LegalInformation = z.infer<typeof legalInformationSchema>;
