import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/helpers.js';
import {
  ADMIN,
  createTestApp,
  createUser,
  DIALECTS,
  signIn,
  TestClient,
} from '../../test/helpers.js';
import { publishTerms } from './service.js';

const texts = (label: string) => ({
  fr: [{ title: `Objet ${label}`, body: 'Le portail…' }],
  en: [{ title: `Purpose ${label}`, body: 'The portal…' }],
  ar: [{ title: `الغرض ${label}`, body: 'البوابة…' }],
});

interface Version {
  version: string;
  effectiveDate: string;
  publishedAt: string;
  publishedBy: { id: string; email: string } | null;
  hashes: { fr: string; en: string; ar: string };
  inForce: boolean;
}

const signUp = (email: string, terms: { cguVersion: string; cguHash: string }) => ({
  type: 'patient',
  email,
  password: 'Sunny-Garden-42',
  passwordConfirmation: 'Sunny-Garden-42',
  acceptCgu: true,
  ...terms,
  firstName: 'Léa',
  lastName: 'Bernard',
  birthDate: '17/05/1980',
  birthPlaceInsee: '75056',
  sex: 'female',
  phone: '06 12 34 56 78',
});

describe.each(DIALECTS)(
  'terms versions in the admin area, and the text ticked at sign-up, on %s',
  (dialect) => {
    let t: TestApp;
    let admin: TestClient;
    beforeAll(async () => {
      t = await createTestApp(dialect);
      t.clock.current = Date.parse('2027-04-02T09:15:00Z');
      admin = new TestClient(t.app);
      await signIn(t, admin);
    });
    afterAll(() => t.close());

    const accountOf = (email: string) =>
      t.ctx.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();

    it('lists every published version: date, publisher, hashes per language, the one in force', async () => {
      const before = await admin.get('/api/admin/cgu');
      expect(before.statusCode).toBe(200);
      const seeded = before.json<{ versions: Version[] }>().versions;
      expect(seeded).toHaveLength(1);
      expect(seeded[0]).toMatchObject({ version: '2026-01', inForce: true, publishedBy: null });

      const at = new Date(t.clock.now()).toISOString();
      const published = await admin.post('/api/admin/cgu', {
        version: '2027-04',
        publishedAt: '2027-04-01',
        texts: texts('A'),
      });
      expect(published.statusCode).toBe(201);
      const { hashes } = published.json<{ hashes: Version['hashes'] }>();
      const { versions } = (await admin.get('/api/admin/cgu')).json<{ versions: Version[] }>();
      const adminId = await accountOf(ADMIN.email);
      expect(versions.map((v) => [v.version, v.inForce])).toEqual([
        ['2027-04', true],
        ['2026-01', false],
      ]);
      expect(versions[0]).toEqual({
        version: '2027-04',
        effectiveDate: '2027-04-01',
        publishedAt: at,
        publishedBy: { id: adminId?.id, email: ADMIN.email },
        hashes,
        inForce: true,
        scheduled: false,
      });
      // The public text of each language is the one the list names.
      const ar = (await new TestClient(t.app).get('/api/cgu?l=ar')).json<{ hash: string }>();
      expect(ar.hash).toBe(hashes.ar);
    });

    it('gives a version’s text in every language, to start the next one from', async () => {
      const res = await admin.get('/api/admin/cgu/2027-04');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        version: '2027-04',
        effectiveDate: '2027-04-01',
        texts: texts('A'),
      });
      expect((await admin.get('/api/admin/cgu/1999-01')).statusCode).toBe(404);
    });

    it('is for administrators only', async () => {
      await createUser(t, {
        email: 'not-admin@hygie.test',
        password: 'Terms-Passw0rd-1',
        phone: '+33655443399',
      });
      const patient = new TestClient(t.app);
      await signIn(t, patient, 'not-admin@hygie.test', 'Terms-Passw0rd-1');
      expect((await patient.get('/api/admin/cgu')).statusCode).toBe(403);
      expect((await patient.get('/api/admin/cgu/2027-04')).statusCode).toBe(403);
      expect((await new TestClient(t.app).get('/api/admin/cgu')).statusCode).toBe(401);
    });

    it('creates the account with the exact text ticked: its version, hash and language', async () => {
      const shown = (await new TestClient(t.app).get('/api/cgu?l=en')).json<{
        version: string;
        hash: string;
      }>();
      // The form was shown in English, the request comes in French: the text read is what counts.
      const res = await new TestClient(t.app).post(
        '/api/register?l=fr',
        signUp('ticked@hygie.test', { cguVersion: shown.version, cguHash: shown.hash }),
      );
      expect(res.statusCode).toBe(201);
      const consents = await t.ctx.db
        .selectFrom('consents')
        .innerJoin('users', 'users.id', 'consents.user_id')
        .select([
          'consents.version',
          'consents.text_hash',
          'consents.language',
          'users.cgu_version',
        ])
        .where('users.email', '=', 'ticked@hygie.test')
        .execute();
      expect(consents).toEqual([
        {
          version: shown.version,
          text_hash: shown.hash,
          language: 'en',
          cgu_version: shown.version,
        },
      ]);
    });

    it('refuses a text no longer in force with 409 terms_changed, and creates nothing', async () => {
      const shown = (await new TestClient(t.app).get('/api/cgu?l=fr')).json<{
        version: string;
        hash: string;
      }>();
      // Published while the form was open.
      await publishTerms(t.ctx, { version: '2027-05', texts: texts('B') }, null);
      const stale = await new TestClient(t.app).post(
        '/api/register',
        signUp('stale@hygie.test', { cguVersion: shown.version, cguHash: shown.hash }),
      );
      expect(stale.statusCode).toBe(409);
      expect(stale.json()).toMatchObject({ code: 'terms_changed' });
      expect(await accountOf('stale@hygie.test')).toBeUndefined();
      const outbox = await t.ctx.db
        .selectFrom('outbox')
        .select('recipient')
        .where('recipient', '=', 'stale@hygie.test')
        .execute();
      expect(outbox).toEqual([]);

      // The version in force with another text's hash (a text never published) is refused too.
      const forged = await new TestClient(t.app).post(
        '/api/register',
        signUp('forged@hygie.test', { cguVersion: '2027-05', cguHash: shown.hash }),
      );
      expect(forged.statusCode).toBe(409);
      expect(await accountOf('forged@hygie.test')).toBeUndefined();
    });

    it('requires the version and hash of the text ticked (400 without them)', async () => {
      const {
        cguVersion: _v,
        cguHash: _h,
        ...old
      } = signUp('old-client@hygie.test', {
        cguVersion: 'x',
        cguHash: 'y',
      });
      const res = await new TestClient(t.app).post('/api/register', old);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'validation_error' });
      expect(await accountOf('old-client@hygie.test')).toBeUndefined();
    });
  },
);
