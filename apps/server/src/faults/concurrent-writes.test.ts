import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../test/helpers.js';
import { createTestApp, createUser, DIALECTS, signIn, TestClient } from '../test/helpers.js';
import { loadSettings } from '../modules/settings/service.js';
import { searchKey } from '../modules/users/search-key.js';

// Writes whose rule spans several columns or rows, sent at once, 20 times each: the stored result
// obeys the rule every time (on PostgreSQL through its pool of real connections). Measured before
// the fix: 5 of 5 parallel profile edits left a search key of names the account no longer had, and
// 15 of 20 parallel settings changes left an idle time-out longer than the absolute one.
const ROUNDS = 20;
const PATIENT = {
  email: 'concurrent@hygie.test',
  password: 'Kerguelen-Orque-1987',
  phone: '+33612345678',
};

describe.each(DIALECTS)('concurrent writes on %s', (dialect) => {
  let t: TestApp;
  let patient: TestClient;
  let admin: TestClient;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    await createUser(t, PATIENT);
    patient = new TestClient(t.app);
    expect((await signIn(t, patient, PATIENT.email, PATIENT.password)).statusCode).toBe(200);
    admin = new TestClient(t.app);
    expect((await signIn(t, admin)).statusCode).toBe(200);
  });
  afterAll(() => t.close());

  const patchProfile = (payload: Record<string, unknown>) =>
    patient.request({ method: 'PATCH', url: '/api/profile', payload });
  const putSetting = (key: string, value: number) =>
    admin.request({ method: 'PUT', url: `/api/admin/settings/${key}`, payload: { value } });

  it('two profile edits at once (first name, last name): the search key is of the final names', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const i = String.fromCharCode(97 + round); // names take letters only
      const answers = await Promise.all([
        patchProfile({ firstName: `Élise${i}` }),
        patchProfile({ lastName: `Dupré${i}` }),
      ]);
      expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
      const row = await t.ctx.db
        .selectFrom('users')
        .select(['first_name', 'last_name', 'search_name'])
        .where('email', '=', PATIENT.email)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({
        first_name: `Élise${i}`,
        last_name: `Dupré${i}`,
        search_name: searchKey(`Élise${i}`, `Dupré${i}`),
      });
    }
  });

  it('idle and absolute session time-outs changed at once: the idle one never exceeds the absolute one', async () => {
    for (let i = 0; i < ROUNDS; i++) {
      // Each change alone is valid from here; together they are not (7,000 s idle > 3,600 s absolute).
      expect((await putSetting('SESSION_ABSOLUTE_TIMEOUT', 7_200)).statusCode).toBe(200);
      expect((await putSetting('SESSION_IDLE_TIMEOUT', 1_800)).statusCode).toBe(200);
      const answers = await Promise.all([
        putSetting('SESSION_IDLE_TIMEOUT', 7_000),
        putSetting('SESSION_ABSOLUTE_TIMEOUT', 3_600),
      ]);
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400]);
      const refused = answers.find((a) => a.statusCode === 400);
      expect(refused?.json()).toMatchObject({ code: 'settings_update_failed' });
      const settings = await loadSettings(t.ctx);
      expect(settings.SESSION_IDLE_TIMEOUT).toBeLessThanOrEqual(settings.SESSION_ABSOLUTE_TIMEOUT);
    }
  });

  it('a reset to the default is judged by the same rule', async () => {
    expect((await putSetting('SESSION_IDLE_TIMEOUT', 600)).statusCode).toBe(200);
    expect((await putSetting('SESSION_ABSOLUTE_TIMEOUT', 900)).statusCode).toBe(200);
    // The default idle time-out (1,800 s) would exceed the absolute one now in force.
    const reset = await admin.request({
      method: 'DELETE',
      url: '/api/admin/settings/SESSION_IDLE_TIMEOUT',
    });
    expect(reset.statusCode).toBe(400);
    expect(reset.json()).toMatchObject({ code: 'settings_reset_failed' });
    expect((await loadSettings(t.ctx)).SESSION_IDLE_TIMEOUT).toBe(600);
  });
});
