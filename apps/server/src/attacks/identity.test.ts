import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../test/helpers.js';
import {
  ADMIN,
  createTestApp,
  createUser,
  DIALECTS,
  messagesTo,
  signIn,
  TestClient,
} from '../test/helpers.js';
import { findUserByEmail } from '../modules/users/service.js';

// Attacker suite (security issue, points 9 and 10): a validated professional changed their RPPS
// alone (200, still active, and the `health` scope then released the new number); and the profile
// told anyone signed in, as often as they liked, whose INS or RPPS is registered. Once an admin
// has checked a professional's identity, it changes only through an admin, audited; a taken
// identifier typed in the profile is slowed, and its owner told.
const PRO = {
  email: 'docteure@example.fr',
  password: 'Kerguelen-Orque-1987',
  phone: '+33611111111',
  profile: 'professional' as const,
  professionalId: { type: 'RPPS', value: '10002909371' },
};
const PATIENT = {
  email: 'patiente@example.fr',
  password: 'Kerguelen-Orque-1988',
  phone: '+33622222222',
};
const OWNER = { email: 'titulaire@example.fr', password: 'Kerguelen-Orque-1989' };
const OWNER_INS = '295109912611193';

describe.each(DIALECTS)('a checked identity on %s', (dialect) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp(dialect);
  });
  afterEach(() => t.close());

  const patch = (client: TestClient, url: string, payload: Record<string, unknown>) =>
    client.request({ method: 'PATCH', url, payload });
  // Through the repository: the stored row holds sealed birth traits.
  const row = async (email: string) => {
    const user = await findUserByEmail(t.ctx.db, email);
    if (!user) throw new Error(`no user ${email}`);
    return user;
  };

  async function signedIn(user: { email: string; password: string }) {
    const client = new TestClient(t.app);
    expect((await signIn(t, client, user.email, user.password)).statusCode).toBe(200);
    return client;
  }

  it('a validated professional cannot change their RPPS, names or birth traits alone', async () => {
    await createUser(t, PRO);
    const pro = await signedIn(PRO);
    const rpps = await patch(pro, '/api/profile', {
      identifier: { type: 'RPPS', value: '10101215225' },
    });
    expect(rpps.statusCode).toBe(400);
    expect(rpps.json()).toMatchObject({
      code: 'validation_error',
      data: { fields: [{ path: 'identifier.value', message: 'identity_locked' }] },
    });
    const names = await patch(pro, '/api/profile', { lastName: 'Usurpée', sex: 'male' });
    expect(names.json()).toMatchObject({
      data: {
        fields: [
          { path: 'lastName', message: 'identity_locked' },
          { path: 'sex', message: 'identity_locked' },
        ],
      },
    });
    const stored = await row(PRO.email);
    expect([stored.professional_id, stored.last_name, stored.sex]).toEqual([
      '10002909371',
      'Martin',
      'female',
    ]);
  });

  it('the form sent whole, identity unchanged, still saves the other fields', async () => {
    await createUser(t, PRO);
    const pro = await signedIn(PRO);
    const res = await patch(pro, '/api/profile', {
      firstName: 'Jeanne',
      lastName: 'Martin',
      identifier: PRO.professionalId,
      job: 'Sage-femme',
      language: 'en',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ job: 'Sage-femme', language: 'en' });
  });

  it('an admin corrects it, audited; nobody else may', async () => {
    const id = await createUser(t, PRO);
    const pro = await signedIn(PRO);
    const self = await patch(pro, `/api/admin/users/${id}/identity`, { lastName: 'Moi-Même' });
    expect(self.statusCode).toBe(403);
    expect((await pro.get(`/api/admin/users/${id}/identity`)).statusCode).toBe(403);
    const admin = await signedIn(ADMIN);
    expect((await admin.get(`/api/admin/users/${id}/identity`)).json()).toMatchObject({
      identifier: '10002909371',
      lastName: 'Martin',
    });
    const res = await patch(admin, `/api/admin/users/${id}/identity`, {
      lastName: 'Martin-Durand',
      identifier: { type: 'RPPS', value: '10101215225' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ lastName: 'Martin-Durand', identifier: '10101215225' });
    const audit = await t.ctx.db
      .selectFrom('audit_events')
      .selectAll()
      .where('action', '=', 'identity_corrected')
      .executeTakeFirstOrThrow();
    expect(audit.target_id).toBe(id);
    expect(JSON.parse(audit.details ?? '{}')).toEqual({
      fields: ['lastName', 'identifier.value'],
    });
  });

  it('a patient (identity declared, never checked) still edits it', async () => {
    await createUser(t, PATIENT);
    const patient = await signedIn(PATIENT);
    const res = await patch(patient, '/api/profile', { lastName: 'Dupont', birthName: 'Martin' });
    expect(res.statusCode).toBe(200);
    expect((await row(PATIENT.email)).last_name).toBe('Dupont');
  });

  it('an INS already someone’s, typed in the profile, is slowed after 5 tries and its owner told', async () => {
    await createUser(t, { ...OWNER, ins: OWNER_INS });
    await createUser(t, PATIENT);
    const prober = await signedIn(PATIENT);
    const answers = [];
    for (let i = 0; i < 6; i++) {
      answers.push((await patch(prober, '/api/profile', { ins: OWNER_INS })).statusCode);
    }
    expect(answers).toEqual([400, 400, 400, 400, 400, 429]);
    expect((await row(PATIENT.email)).ins).toBeNull();
    const told = (await messagesTo(t, OWNER.email)).filter(
      (m) => m.template === 'identifier_claimed',
    );
    expect(told).toHaveLength(5);
  });
});
