import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGES } from '@hygie/domain';
import { z } from 'zod';
import type { TestApp } from '../../test/helpers.js';
import { createTestApp, createUser, DIALECTS, signIn, TestClient } from '../../test/helpers.js';
import { loadSettings } from '../settings/service.js';
import { publishTerms, termsHash } from './service.js';

const texts = (label: string) => ({
  fr: [{ title: `Objet ${label}`, body: 'Le portail…' }],
  en: [{ title: `Purpose ${label}`, body: 'The portal…' }],
  ar: [{ title: `الغرض ${label}`, body: 'البوابة…' }],
});

interface Text {
  version: string;
  publishedAt: string;
  language: string;
  sections: { title: string; body: string }[];
  hash: string;
  acceptedVersion?: string | null;
}

describe.each(DIALECTS)('terms of use stored on the server, on %s', (dialect) => {
  let t: TestApp;
  let admin: TestClient;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    t.clock.current = Date.parse('2027-03-14T23:30:00Z');
    admin = new TestClient(t.app);
    await signIn(t, admin);
  });
  afterAll(() => t.close());

  it('serves the text in force in each language, with the hash of exactly that text', async () => {
    const anonymous = new TestClient(t.app);
    const seen = new Set<string>();
    for (const language of LANGUAGES) {
      const res = await anonymous.get(`/api/cgu?l=${language}`);
      expect(res.statusCode).toBe(200);
      const text = res.json<Text>();
      expect(text).toMatchObject({ version: '2026-01', language, acceptedVersion: null });
      // The text the web client used to carry: seven sections, each titled.
      expect(text.sections).toHaveLength(7);
      expect(text.hash).toBe(termsHash(text.version, language, text.sections));
      seen.add(text.hash);
    }
    expect(seen.size).toBe(3);
    const fr = (await anonymous.get('/api/cgu?l=fr')).json<Text>();
    expect(fr.sections[0]?.title).toBe('Objet');
  });

  it('publishes a version from the admin area: texts, date, audit; the version is never changed', async () => {
    const res = await admin.post('/api/admin/cgu', { version: '2027-03', texts: texts('A') });
    expect(res.statusCode).toBe(201);
    const published = res.json<{ version: string; publishedAt: string; hashes: object }>();
    // 23:30 UTC on the 14th is the 15th in Paris (TIME_ZONE): today is the service's date.
    const today = '2027-03-15';
    expect(published).toMatchObject({ version: '2027-03', publishedAt: today, scheduled: false });
    const settings = await loadSettings(t.ctx, t.ctx.db);
    expect([settings.CGU_VERSION, settings.CGU_PUBLISHED_AT]).toEqual(['2027-03', today]);
    const inForce = (await new TestClient(t.app).get('/api/cgu?l=ar')).json<Text>();
    expect(inForce).toMatchObject({ version: '2027-03', sections: texts('A').ar });
    expect(published.hashes).toMatchObject({ ar: inForce.hash });
    const event = await t.ctx.db
      .selectFrom('audit_events')
      .selectAll()
      .where('action', '=', 'terms_published')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(event.details ?? '{}')).toEqual({ version: '2027-03', publishedAt: today });
    // Published once: another text under the same version is refused, the first one stays.
    const again = await admin.post('/api/admin/cgu', { version: '2027-03', texts: texts('B') });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'terms_version_exists' });
    expect((await new TestClient(t.app).get('/api/cgu?l=ar')).json<Text>().hash).toBe(inForce.hash);
  });

  it('refuses a version without a text in every language, with a translated 400', async () => {
    const { ar: _ar, ...withoutArabic } = texts('C');
    const res = await admin.post('/api/admin/cgu?l=en', {
      version: '2027-05',
      texts: withoutArabic,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_error' });
    expect((await loadSettings(t.ctx, t.ctx.db)).CGU_VERSION).not.toBe('2027-05');
  });

  it('is published by administrators only', async () => {
    await createUser(t, {
      email: 'patient-terms@hygie.test',
      password: 'Terms-Passw0rd-1',
      phone: '+33655443321',
    });
    const patient = new TestClient(t.app);
    await signIn(t, patient, 'patient-terms@hygie.test', 'Terms-Passw0rd-1');
    const res = await patient.post('/api/admin/cgu', { version: '2027-06', texts: texts('D') });
    expect(res.statusCode).toBe(403);
    expect((await new TestClient(t.app).post('/api/admin/cgu', {})).statusCode).toBe(401);
  });

  it('keeps which text a person accepted, and lets them read that version again', async () => {
    await createUser(t, {
      email: 'reader@hygie.test',
      password: 'Terms-Passw0rd-1',
      phone: '+33655443322',
    });
    await publishTerms(t.ctx, { version: '2027-07', texts: texts('E') }, null);
    const reader = new TestClient(t.app);
    const signedIn = await signIn(t, reader, 'reader@hygie.test', 'Terms-Passw0rd-1');
    expect(signedIn.json()).toMatchObject({ email: 'reader@hygie.test' });
    const consent = await t.ctx.db
      .selectFrom('consents')
      .innerJoin('users', 'users.id', 'consents.user_id')
      .select(['consents.version', 'consents.text_hash', 'consents.language'])
      .where('users.email', '=', 'reader@hygie.test')
      .where('consents.version', '=', '2027-07')
      .executeTakeFirstOrThrow();
    const read = (await reader.get('/api/cgu/versions/2027-07?l=fr')).json<Text>();
    expect(consent).toEqual({ version: '2027-07', text_hash: read.hash, language: 'fr' });
    expect(read.sections).toEqual(texts('E').fr);
    // A newer version in force does not change what the older one said.
    await publishTerms(t.ctx, { version: '2027-08', texts: texts('F') }, null);
    const again = (await reader.get('/api/cgu/versions/2027-07?l=fr')).json<Text>();
    expect(again).toEqual(read);
    const unknown = await reader.get('/api/cgu/versions/1999-01');
    expect(unknown.statusCode).toBe(404);
  });

  it('of two administrators publishing the same version at once, one wins', async () => {
    const [a, b] = await Promise.all([
      admin.post('/api/admin/cgu', { version: '2027-09', texts: texts('G') }),
      admin.post('/api/admin/cgu', { version: '2027-09', texts: texts('H') }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([201, 409]);
    const rows = await t.ctx.db
      .selectFrom('terms_texts')
      .select('sections')
      .where('version', '=', '2027-09')
      .execute();
    expect(rows).toHaveLength(3);
    // One text won, whole: every language from the same request.
    const titles = rows.map(
      (row) =>
        z.array(z.object({ title: z.string() })).parse(JSON.parse(row.sections))[0]?.title ?? '',
    );
    expect(new Set(titles.map((title) => title.split(' ')[1])).size).toBe(1);
  });
});
