import type { LegalInformation } from '@hygie/domain';
import { SUPPORT } from './account-data';

/** GET /api/legal of an operator that filled in everything. */
export const LEGAL_INFORMATION: LegalInformation = {
  publisher: {
    name: 'Centre hospitalier de Test',
    address: '1 rue de la Santé, 75014 Paris',
    registration: 'FINESS 750000000',
  },
  publicationDirector: 'Jeanne Directrice',
  host: {
    name: 'Hébergeur Santé SAS',
    address: '2 avenue des Serveurs, 69000 Lyon',
    hdsCertificate: 'HDS-2024-001',
  },
  dpoContact: 'dpo@hygie.example',
  accessibilityDate: '2027-02-15',
  contactEmail: 'support@hygie.example',
  retention: { auditDays: 365, trustedDeviceDays: 30 },
};

/** GET /api/legal of an operator that set none of the LEGAL_* variables. */
export const UNCONFIGURED_LEGAL_INFORMATION: LegalInformation = {
  publisher: { name: null, address: null, registration: null },
  publicationDirector: null,
  host: { name: null, address: null, hdsCertificate: null },
  dpoContact: null,
  accessibilityDate: '2026-11-26',
  contactEmail: 'support@hygie.example',
  retention: { auditDays: 365, trustedDeviceDays: 30 },
};

export { SUPPORT };
