import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { TestApp } from '../../test/helpers.js';
import {
  createTestApp,
  createUser,
  DIALECTS,
  lastCode,
  signIn,
  TestClient,
} from '../../test/helpers.js';
import type { AppSettings } from '../settings/service.js';
import { defaultSettings, loadSettings, termsInForceOn } from '../settings/service.js';
import { publishTerms } from './service.js';

const texts = (label: string) => ({
  fr: [{ title: `Objet ${label}`, body: 'Le portail…' }],
  en: [{ title: `Purpose ${label}`, body: 'The portal…' }],
  ar: [{ title: `الغرض ${label}`, body: 'البوابة…' }],
});

interface Version {
  version: string;
  effectiveDate: string;
  inForce: boolean;
  scheduled: boolean;
}

describe('the terms in force on a day', () => {
  const stored: AppSettings = {
    ...defaultSettings({ session: { idleSeconds: 1800, absoluteSeconds: 43_200 } }),
    CGU_VERSION: '2027-01',
    CGU_PUBLISHED_AT: '2027-01-01',
    CGU_NEXT_VERSION: '2027-06',
    CGU_NEXT_AT: '2027-06-20',
  };

  it('are the scheduled version from its date on, and the one before until then', () => {
    expect(termsInForceOn(stored, '2027-06-19')).toEqual(stored);
    const inForce = {
      ...stored,
      CGU_VERSION: '2027-06',
      CGU_PUBLISHED_AT: '2027-06-20',
      CGU_NEXT_VERSION: null,
      CGU_NEXT_AT: null,
    };
    expect(termsInForceOn(stored, '2027-06-20')).toEqual(inForce);
    expect(termsInForceOn(stored, '2028-01-01')).toEqual(inForce);
  });

  it('are the version in force when none is scheduled, or the schedule is incomplete', () => {
    const none = { ...stored, CGU_NEXT_VERSION: null, CGU_NEXT_AT: null };
    expect(termsInForceOn(none, '2030-01-01')).toEqual(none);
    const noDate = { ...stored, CGU_NEXT_AT: null };
    expect(termsInForceOn(noDate, '2030-01-01').CGU_VERSION).toBe('2027-01');
  });
});

describe.each(DIALECTS)('terms published with a future effective date, on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  const at = (iso: string) => {
    t.clock.current = Date.parse(iso);
  };
  const asAdmin = async () => {
    const admin = new TestClient(t.app);
    await signIn(t, admin);
    return admin;
  };
  const versions = async (admin: TestClient) =>
    (await admin.get('/api/admin/cgu'))
      .json<{ versions: Version[] }>()
      .versions.map((v) => [v.version, v.inForce, v.scheduled]);
  const inForce = async () => {
    const { CGU_VERSION, CGU_NEXT_VERSION } = await loadSettings(t.ctx);
    return [CGU_VERSION, CGU_NEXT_VERSION];
  };
  const auditDetails = async (version: string) => {
    const events = await t.ctx.db
      .selectFrom('audit_events')
      .select('details')
      .where('action', '=', 'terms_published')
      .execute();
    return events
      .map((event) => z.record(z.string(), z.unknown()).parse(JSON.parse(event.details ?? '{}')))
      .find((details) => details.version === version);
  };

  it('keeps the version in force until that day in TIME_ZONE, then every sign-in asks for the new one', async () => {
    // 22:00 in Paris (TIME_ZONE), 20:00 UTC.
    at('2027-06-19T20:00:00Z');
    const admin = await asAdmin();
    const res = await admin.post('/api/admin/cgu', {
      version: '2027-06',
      publishedAt: '2027-06-20',
      texts: texts('A'),
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      version: '2027-06',
      publishedAt: '2027-06-20',
      scheduled: true,
    });
    expect(await auditDetails('2027-06')).toEqual({
      version: '2027-06',
      publishedAt: '2027-06-20',
      scheduled: true,
    });
    // Stored, listed as scheduled; the text served is still the one in force.
    expect(await versions(admin)).toEqual([
      ['2027-06', false, true],
      ['2026-01', true, false],
    ]);
    expect((await new TestClient(t.app).get('/api/cgu?l=fr')).json()).toMatchObject({
      version: '2026-01',
    });

    // Before the date, a person signs in without being asked, and has nothing to accept.
    await createUser(t, {
      email: 'before@hygie.test',
      password: 'Terms-Passw0rd-1',
      phone: '+33655443301',
    });
    const patient = new TestClient(t.app);
    at('2027-06-19T21:40:00Z');
    const signedIn = await patient.login('before@hygie.test', 'Terms-Passw0rd-1');
    await patient.post('/api/mfa/send', { provider: 'email' });
    const verified = await patient.post('/api/mfa/verify', {
      provider: 'email',
      code: await lastCode(t, 'before@hygie.test'),
    });
    expect([signedIn.json(), verified.statusCode]).toMatchObject([
      { code: 'two_factor_authentication_required' },
      200,
    ]);
    expect((await patient.get('/api/dashboard')).json()).toMatchObject({ attention: [] });

    // Midnight in Paris (22:00 UTC): the new version is in force, with no one touching anything.
    at('2027-06-19T22:05:00Z');
    expect(await inForce()).toEqual(['2027-06', null]);
    const served = (await new TestClient(t.app).get('/api/cgu?l=en')).json<{
      version: string;
      hash: string;
      sections: unknown;
    }>();
    expect(served).toMatchObject({ version: '2027-06', sections: texts('A').en });
    expect((await patient.get('/api/dashboard')).json()).toMatchObject({
      attention: [{ kind: 'terms_to_accept' }],
    });
    const next = new TestClient(t.app);
    await next.login('before@hygie.test', 'Terms-Passw0rd-1');
    await next.post('/api/mfa/send', { provider: 'email' });
    const stage = await next.post('/api/mfa/verify', {
      provider: 'email',
      code: await lastCode(t, 'before@hygie.test'),
    });
    expect(stage.json()).toMatchObject({ code: 'cgu_not_accepted' });
    const accepted = await next.post('/api/cgu/accept', {
      version: '2027-06',
      hash: served.hash,
    });
    expect(accepted.statusCode).toBe(200);
    const user = await t.ctx.db
      .selectFrom('users')
      .select('cgu_version')
      .where('email', '=', 'before@hygie.test')
      .executeTakeFirstOrThrow();
    expect(user.cgu_version).toBe('2027-06');
    expect(await versions(await asAdmin())).toEqual([
      ['2027-06', true, false],
      ['2026-01', false, false],
    ]);
  });

  it('replaces a version still waiting for its date with the one published after it', async () => {
    at('2027-07-01T08:00:00Z');
    await publishTerms(
      t.ctx,
      { version: '2027-08', publishedAt: '2027-08-01', texts: texts('B') },
      null,
    );
    const replacing = await publishTerms(
      t.ctx,
      { version: '2027-09', publishedAt: '2027-08-15', texts: texts('C') },
      null,
    );
    expect(replacing).toMatchObject({ scheduled: true, publishedAt: '2027-08-15' });
    expect(await auditDetails('2027-09')).toEqual({
      version: '2027-09',
      publishedAt: '2027-08-15',
      scheduled: true,
      replacesScheduled: '2027-08',
    });
    expect(await inForce()).toEqual(['2027-06', '2027-09']);
    // The replaced one never comes into force.
    at('2027-08-02T08:00:00Z');
    expect(await inForce()).toEqual(['2027-06', '2027-09']);

    // In force at once (today by default): the scheduled one is replaced too.
    const now = await publishTerms(t.ctx, { version: '2027-10', texts: texts('D') }, null);
    expect(now).toMatchObject({ scheduled: false, publishedAt: '2027-08-02' });
    at('2027-08-16T08:00:00Z');
    expect(await inForce()).toEqual(['2027-10', null]);
    expect((await versions(await asAdmin())).slice(0, 3)).toEqual([
      ['2027-10', true, false],
      ['2027-09', false, false],
      ['2027-08', false, false],
    ]);
  });

  it('writes down a scheduled version whose day has come before scheduling another', async () => {
    at('2027-09-01T08:00:00Z');
    await publishTerms(
      t.ctx,
      { version: '2027-11', publishedAt: '2027-09-10', texts: texts('E') },
      null,
    );
    at('2027-09-12T08:00:00Z');
    await publishTerms(
      t.ctx,
      { version: '2027-12', publishedAt: '2027-10-01', texts: texts('F') },
      null,
    );
    expect(await inForce()).toEqual(['2027-11', '2027-12']);
    at('2027-10-01T08:00:00Z');
    expect(await inForce()).toEqual(['2027-12', null]);
  });

  it('refuses an effective date before the version in force’s, storing nothing', async () => {
    at('2027-10-05T08:00:00Z');
    const admin = await asAdmin();
    const res = await admin.post('/api/admin/cgu?l=en', {
      version: '2027-13',
      publishedAt: '2027-09-30',
      texts: texts('G'),
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'terms_date_too_early',
      message: 'The effective date cannot be earlier than that of the version in force.',
    });
    const stored = await t.ctx.db
      .selectFrom('terms_texts')
      .select('version')
      .where('version', '=', '2027-13')
      .execute();
    expect(stored).toEqual([]);
    // The same day as the version in force is accepted, in force at once.
    const sameDay = await admin.post('/api/admin/cgu', {
      version: '2027-13',
      publishedAt: '2027-10-01',
      texts: texts('G'),
    });
    expect(sameDay.json()).toMatchObject({ version: '2027-13', scheduled: false });
    expect(await inForce()).toEqual(['2027-13', null]);
  });
});
