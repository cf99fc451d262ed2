import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/helpers.js';
import { createTestApp, createUser, DIALECTS, signIn, TestClient } from '../../test/helpers.js';
import { findUserByEmail } from '../users/service.js';

// Spec §3's category, address, gender and parent's INS (docs/domain.md "Person fields").

const OWN_INS = '295109912611193';
const PARENT_INS = '185057800608491';
/** Another patient's own INS (INS numbers are unique). */
const OTHER_INS = '280017505612325';
const ADDRESS = { line1: '12 rue de la Paix', postalCode: '75002', city: 'Paris', country: 'FR' };

type FieldProblem = { path: string; message: string };

describe.each(DIALECTS)(
  'the person fields category, address, gender, parentIns on %s',
  (dialect) => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(dialect);
    });
    afterAll(() => t.close());

    let n = 0;
    async function signedIn(
      profile: 'patient' | 'professional',
      options: { ins?: string; status?: 'active' | 'pending_validation' } = {},
    ) {
      n += 1;
      const email = `fields-${n}@hygie.test`;
      await createUser(t, {
        email,
        password: 'Fields-Passw0rd-1',
        phone: `+336560000${String(n).padStart(2, '0')}`,
        profile,
        ...(options.ins ? { ins: options.ins } : {}),
        ...(options.status ? { status: options.status } : {}),
        ...(profile === 'professional'
          ? { professionalId: { type: 'rpps', value: `1000000${n}` } }
          : {}),
      });
      const client = new TestClient(t.app);
      expect((await signIn(t, client, email, 'Fields-Passw0rd-1')).statusCode).toBe(200);
      // Through the repository: the stored row holds sealed values.
      const row = async () => {
        const user = await findUserByEmail(t.ctx.db, email);
        if (!user) throw new Error(`no user ${email}`);
        return user;
      };
      const edit = (payload: Record<string, unknown>) =>
        client.request({ method: 'PATCH', url: '/api/profile', payload });
      return { client, row, edit };
    }

    const problems = (response: { json: <T>() => T }) =>
      response
        .json<{ data: { fields: FieldProblem[] } }>()
        .data.fields.map(({ path, message }) => ({ path, message }));

    it('a patient sets an address, a gender and the parent INS; they are stored, shown and cleared', async () => {
      const { client, row, edit } = await signedIn('patient', { ins: OWN_INS });
      const saved = await edit({
        address: { ...ADDRESS, line2: 'Bât. B', postalCode: ' 75002 ' },
        gender: 'non_binary',
        parentIns: '1 85 05 78 006 084 91',
      });
      expect(saved.statusCode).toBe(200);
      const shown = {
        address: { ...ADDRESS, line2: 'Bât. B' },
        gender: 'non_binary',
        parentIns: PARENT_INS,
        sex: 'female',
        category: null,
      };
      expect(saved.json()).toMatchObject(shown);
      expect((await client.get('/api/profile')).json()).toMatchObject(shown);
      expect(await row()).toMatchObject({
        address_line1: '12 rue de la Paix',
        address_line2: 'Bât. B',
        address_postal_code: '75002',
        address_city: 'Paris',
        address_country: 'FR',
        gender: 'non_binary',
        parent_ins: PARENT_INS,
        // The civil-status sex is another field, untouched.
        sex: 'female',
      });
      const audit = await t.ctx.db
        .selectFrom('audit_events')
        .select('details')
        .where('action', '=', 'profile_updated')
        .where('target_id', '=', (await row()).id)
        .executeTakeFirstOrThrow();
      expect(JSON.parse(audit.details ?? '{}')).toMatchObject({
        fields: expect.arrayContaining(['address_postal_code', 'gender', 'parent_ins']),
      });

      const cleared = await edit({ address: null, gender: null, parentIns: null });
      expect(cleared.statusCode).toBe(200);
      expect(cleared.json()).toMatchObject({ address: null, gender: null, parentIns: null });
      expect(await row()).toMatchObject({
        address_line1: null,
        address_line2: null,
        address_postal_code: null,
        address_city: null,
        address_country: null,
        gender: null,
        parent_ins: null,
      });
    });

    it('a professional sets a category and an address; a patient’s category and a professional’s parent INS are ignored, as job and ins are', async () => {
      const pro = await signedIn('professional');
      const saved = await pro.edit({
        category: 'E',
        address: ADDRESS,
        gender: 'female',
        parentIns: PARENT_INS,
        ins: OWN_INS,
      });
      expect(saved.statusCode).toBe(200);
      expect(saved.json()).toMatchObject({
        category: 'E',
        address: { ...ADDRESS, line2: null },
        gender: 'female',
        parentIns: null,
        ins: null,
      });
      expect(await pro.row()).toMatchObject({ category: 'E', parent_ins: null, ins: null });

      const patient = await signedIn('patient');
      const ignored = await patient.edit({ category: 'M', job: 'Infirmier', gender: 'male' });
      expect(ignored.statusCode).toBe(200);
      expect(ignored.json()).toMatchObject({ category: null, job: null, gender: 'male' });
      expect(await patient.row()).toMatchObject({ category: null, job: null });
    });

    it('a validated professional changes the category (not a checked trait) without an admin', async () => {
      const pro = await signedIn('professional', { status: 'active' });
      const saved = await pro.edit({ category: 'M' });
      expect(saved.statusCode).toBe(200);
      expect(saved.json()).toMatchObject({ category: 'M' });
    });

    it('refuses a parent INS equal to the patient’s own, whether stored or given in the same edit', async () => {
      const stored = await signedIn('patient', { ins: OTHER_INS });
      const same = await stored.edit({ parentIns: OTHER_INS });
      expect(same.statusCode).toBe(400);
      expect(problems(same)).toEqual([{ path: 'parentIns', message: 'parent_ins_same' }]);
      expect((await stored.row()).parent_ins).toBeNull();

      const together = await stored.edit({ ins: PARENT_INS, parentIns: PARENT_INS });
      expect(together.statusCode).toBe(400);
      expect(problems(together)).toEqual([{ path: 'parentIns', message: 'parent_ins_same' }]);

      // Taking as one's own INS the parent's stored one is refused on the INS.
      expect((await stored.edit({ parentIns: PARENT_INS })).statusCode).toBe(200);
      const swapped = await stored.edit({ ins: PARENT_INS });
      expect(swapped.statusCode).toBe(400);
      expect(problems(swapped)).toEqual([{ path: 'ins', message: 'parent_ins_same' }]);
      expect(await stored.row()).toMatchObject({ ins: OTHER_INS, parent_ins: PARENT_INS });

      // Another patient may have the same parent (a brother, a sister): the parent INS is not unique.
      const sibling = await signedIn('patient');
      expect((await sibling.edit({ parentIns: PARENT_INS })).statusCode).toBe(200);
    });

    it('refuses bad values field by field, saving nothing', async () => {
      const { row, edit } = await signedIn('patient');
      const bad = await edit({
        address: { line1: 'x'.repeat(101), postalCode: '7500', city: 'Paris', country: 'FR' },
        gender: 'unknown',
        parentIns: '185057800608492',
      });
      expect(bad.statusCode).toBe(400);
      expect(problems(bad)).toEqual(
        expect.arrayContaining([
          { path: 'address.line1', message: 'address_too_long' },
          { path: 'gender', message: 'field_invalid' },
          { path: 'parentIns', message: 'ins_invalid' },
        ]),
      );
      const postal = await edit({ address: { ...ADDRESS, postalCode: '7500' } });
      expect(problems(postal)).toEqual([
        { path: 'address.postalCode', message: 'postal_code_invalid' },
      ]);
      const country = await edit({ address: { ...ADDRESS, country: 'XX' } });
      expect(problems(country)).toEqual([{ path: 'address.country', message: 'country_invalid' }]);
      const category = await edit({ category: 'F' });
      expect(problems(category)).toEqual([{ path: 'category', message: 'field_invalid' }]);
      expect(await row()).toMatchObject({
        address_line1: null,
        gender: null,
        parent_ins: null,
        category: null,
      });
    });
  },
);
