import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.js';
import type { TestApp } from '../../test/helpers.js';
import { createTestApp, DIALECTS, TestClient } from '../../test/helpers.js';
import { saveSetting } from '../settings/service.js';

const DAY = 24 * 3600;

describe.each(DIALECTS)('the legal information on %s', (dialect) => {
  describe('configured', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(dialect, {
        env: {
          LEGAL_PUBLISHER_NAME: 'Centre hospitalier de Test',
          LEGAL_PUBLISHER_ADDRESS: '1 rue de la Santé, 75014 Paris',
          LEGAL_PUBLISHER_REGISTRATION: 'FINESS 750000000',
          LEGAL_PUBLICATION_DIRECTOR: 'Jeanne Directrice',
          LEGAL_HOST_NAME: 'Hébergeur Santé SAS',
          LEGAL_HOST_ADDRESS: '2 avenue des Serveurs, 69000 Lyon',
          LEGAL_HOST_HDS_CERTIFICATE: 'HDS-2024-001',
          LEGAL_DPO_CONTACT: 'dpo@hopital.test',
          LEGAL_ACCESSIBILITY_DATE: '2027-02-15',
          CONTACT_EMAIL: 'aide@hopital.test',
        },
      });
    });
    afterAll(() => t.close());

    it('is public and gives the operator’s organisation, host and contacts', async () => {
      const response = await new TestClient(t.app).get('/api/legal');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
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
        dpoContact: 'dpo@hopital.test',
        accessibilityDate: '2027-02-15',
        contactEmail: 'aide@hopital.test',
        retention: { auditDays: 365, trustedDeviceDays: 30 },
      });
    });

    it('gives the retention periods in force after an admin changes them', async () => {
      await saveSetting(t.ctx.db, 'AUDIT_RETENTION', 90 * DAY, null, t.clock.now());
      await saveSetting(t.ctx.db, 'TRUSTED_DEVICE_DAYS', 7, null, t.clock.now());
      const response = await new TestClient(t.app).get('/api/legal');
      expect(response.json()).toMatchObject({
        retention: { auditDays: 90, trustedDeviceDays: 7 },
      });
    });
  });

  describe('not configured', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(dialect);
    });
    afterAll(() => t.close());

    it('answers null for what the operator did not set', async () => {
      const response = await new TestClient(t.app).get('/api/legal');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        publisher: { name: null, address: null, registration: null },
        publicationDirector: null,
        host: { name: null, address: null, hdsCertificate: null },
        dpoContact: null,
        accessibilityDate: '2026-11-26',
        contactEmail: 'support@hygie.local',
      });
    });
  });
});

describe('the accessibility statement’s date in the configuration', () => {
  it('is a real calendar date', () => {
    expect(loadConfig({ LEGAL_ACCESSIBILITY_DATE: '2027-02-15' }).legal.accessibilityDate).toBe(
      '2027-02-15',
    );
    expect(() => loadConfig({ LEGAL_ACCESSIBILITY_DATE: '2027-02-30' })).toThrow(ConfigError);
    expect(() => loadConfig({ LEGAL_ACCESSIBILITY_DATE: '15/02/2027' })).toThrow(
      'LEGAL_ACCESSIBILITY_DATE',
    );
  });
});
