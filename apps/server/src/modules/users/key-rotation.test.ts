import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuiltApp } from '../../app.js';
import { buildApp } from '../../app.js';
import { DataKeyError, installDataKeys, seal } from '../../security/field-crypto.js';
import { TEST_DATA_KEYS, TEST_KEYRING } from '../../test/data-keys.js';
import type { TestApp } from '../../test/helpers.js';
import { createTestApp, DIALECTS, signIn, TestClient, testConfig } from '../../test/helpers.js';
import { checkDataKeyRotation, rotateDataKey } from './key-rotation.js';
import type { Patient } from '../../test/patients.js';
import {
  addAccounts,
  insNumber,
  keyIdsInUse,
  LONG_SESSIONS,
  PASSWORD,
  registerPatients,
  storedValues,
} from '../../test/patients.js';
import { findUserById, findUserByIns } from './service.js';

// Issue 21, rotation: values sealed under key A (t1) are re-sealed under B (t2) once the nodes run
// with "B,A", in batches, resumably, while requests sign in by INS and edit profiles.

const KEY_B = `t2:${Buffer.alloc(32, 11).toString('base64')}`;

/** The app restarted with B active and A still configured (the first step of a rotation). */
function startWithKeyB(t: TestApp): Promise<BuiltApp> {
  return buildApp(
    testConfig({ DATA_ENCRYPTION_KEY: `${KEY_B},${TEST_DATA_KEYS.encryption}`, ...LONG_SESSIONS }),
    { database: t.reopenDatabase(), clock: t.clock, logger: false },
  );
}

afterAll(() => installDataKeys(TEST_KEYRING));

describe.each(DIALECTS)('data key rotation on %s', (dialect) => {
  let t: TestApp;
  let rotated: BuiltApp;
  let patients: Patient[];
  beforeAll(async () => {
    t = await createTestApp(dialect, { env: LONG_SESSIONS });
    patients = await registerPatients(t, 5, 'rotate');
    rotated = await startWithKeyB(t);
  });
  afterAll(async () => {
    await rotated.app.close();
    await t.close();
  });

  it('refuses, writing nothing, when a value is sealed with a key that is not configured', async () => {
    const [first] = patients;
    if (!first) throw new Error('no patient');
    const unknownKey = {
      keys: [{ id: 'c3', key: Buffer.alloc(32, 13) }],
      index: TEST_KEYRING.index,
    };
    const original = await rotated.ctx.db
      .selectFrom('users')
      .select('birth_place_insee')
      .where('id', '=', first.id)
      .executeTakeFirstOrThrow();
    await rotated.ctx.db
      .updateTable('users')
      .set({ birth_place_insee: seal(unknownKey, `users.birth_place_insee:${first.id}`, '75056') })
      .where('id', '=', first.id)
      .execute();
    try {
      const before = await storedValues(rotated.ctx.db);
      const err: unknown = await rotateDataKey(rotated.ctx).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(DataKeyError);
      const message = err instanceof Error ? err.message : '';
      expect(message).toMatch(/data key "c3", which is not configured/);
      expect(message).toContain(first.id);
      expect(message).not.toContain('\n');
      expect(await storedValues(rotated.ctx.db)).toEqual(before);
    } finally {
      await rotated.ctx.db.updateTable('users').set(original).where('id', '=', first.id).execute();
    }
  });

  it('fails the batch, writing nothing, on a value that does not open with its key', async () => {
    const [first, second] = patients;
    if (!first || !second) throw new Error('no patients');
    const stored = (id: string) =>
      rotated.ctx.db
        .selectFrom('users')
        .select('sex')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
    const original = await stored(first.id);
    // Another account's value copied here: sealed under t1, but bound to that other account.
    await rotated.ctx.db
      .updateTable('users')
      .set(await stored(second.id))
      .where('id', '=', first.id)
      .execute();
    try {
      const before = await storedValues(rotated.ctx.db);
      const err: unknown = await rotateDataKey(rotated.ctx).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(DataKeyError);
      const message = err instanceof Error ? err.message : '';
      expect(message).toBe(
        `users.sex of account ${first.id}: value does not open with data key "t1" (wrong key or moved value)`,
      );
      expect(await storedValues(rotated.ctx.db)).toEqual(before);
    } finally {
      await rotated.ctx.db.updateTable('users').set(original).where('id', '=', first.id).execute();
    }
  });

  it('re-seals every value under the active key in batches, resumably, and everything still reads', async () => {
    const total = (await storedValues(rotated.ctx.db)).size;
    expect(await keyIdsInUse(rotated.ctx.db)).toEqual({ t1: total });
    expect(await checkDataKeyRotation(rotated.ctx)).toEqual({
      activeKey: 't2',
      byKey: { t1: total },
      remaining: total,
    });

    // Stopped after one batch of two accounts: part done, the rest still under A.
    const first = await rotateDataKey(rotated.ctx, { batchSize: 2, maxBatches: 1 });
    expect(first).toMatchObject({ batches: 1, stopped: true, conflicts: 0 });
    expect(first.resealed).toBeGreaterThan(0);
    expect(first.remaining).toBe(total - first.resealed);
    const partial = await keyIdsInUse(rotated.ctx.db);
    expect(partial).toEqual({ t1: first.remaining, t2: first.resealed });

    // Run again: it continues from the data itself and finishes.
    const second = await rotateDataKey(rotated.ctx, { batchSize: 2 });
    expect(second).toMatchObject({ stopped: false, conflicts: 0, remaining: 0 });
    expect(second.resealed).toBe(first.remaining);
    expect(await keyIdsInUse(rotated.ctx.db)).toEqual({ t2: total });

    // Nothing left: another run writes nothing.
    const before = await storedValues(rotated.ctx.db);
    expect(await rotateDataKey(rotated.ctx)).toMatchObject({ resealed: 0, batches: 0 });
    expect(await storedValues(rotated.ctx.db)).toEqual(before);

    for (const patient of patients) {
      expect(await findUserById(rotated.ctx.db, patient.id)).toMatchObject({
        ins: patient.ins,
        birth_date: '1980-05-17',
        birth_place_insee: '75056',
        sex: 'female',
      });
      expect((await findUserByIns(rotated.ctx.db, patient.ins))?.id).toBe(patient.id);
    }
    const [patient] = patients;
    if (!patient) throw new Error('no patient');
    const client = new TestClient(rotated.app);
    expect((await signIn(t, client, patient.ins, PASSWORD)).statusCode).toBe(200);
  });
});

// On PostgreSQL, in this process: the rotation's batches and the requests run on connections of
// the pool, side by side. (On SQLite the rotation runs as the real command, in its own process,
// beside the requests: cli-data-rotate-key.test.ts.)
describe.skipIf(!DIALECTS.includes('postgres'))('data key rotation under load on postgres', () => {
  let t: TestApp;
  let rotated: BuiltApp;
  let patients: Patient[];
  beforeAll(async () => {
    t = await createTestApp('postgres', { env: LONG_SESSIONS });
    // The patients' rows among others (ids are time-ordered): the rotation reaches them midway.
    await addAccounts(t, 150, 'before');
    patients = await registerPatients(t, 8, 'load');
    await addAccounts(t, 150, 'after');
    rotated = await startWithKeyB(t);
  });
  afterAll(async () => {
    await rotated.app.close();
    await t.close();
  });

  it('keeps every sign-in by INS working, loses no edit, and leaves nothing under the old key', async () => {
    const ROUNDS = 3;
    const lastParentIns = new Map<string, string>();
    const statuses: (number | string)[] = [];
    // Each patient's browser is trusted once (its second factor done), so the sign-ins below are
    // the INS and password alone, as fast as the requests go.
    const clients = new Map<string, TestClient>();
    for (const patient of patients) {
      const client = new TestClient(rotated.app);
      const trusted = await signIn(t, client, patient.ins, PASSWORD, { trustDevice: true });
      expect(trusted.statusCode).toBe(200);
      clients.set(patient.id, client);
    }
    const patientLoop = async (patient: Patient, index: number) => {
      const client = clients.get(patient.id) ?? new TestClient(rotated.app);
      for (let round = 0; round < ROUNDS; round++) {
        const signedIn = await client.login(patient.ins, PASSWORD);
        statuses.push(signedIn.statusCode === 200 ? 200 : signedIn.body);
        const parentIns = insNumber(500 + index * 10 + round);
        const edit = await client.request({
          method: 'PATCH',
          url: '/api/profile',
          payload: { parentIns },
        });
        statuses.push(edit.statusCode === 200 ? 200 : edit.body);
        if (!rotationDone) duringRotation += 1;
        if (edit.statusCode === 200) lastParentIns.set(patient.id, parentIns);
      }
    };
    let rotationDone = false;
    let duringRotation = 0;
    const [rotation] = await Promise.all([
      rotateDataKey(rotated.ctx, { batchSize: 5 }).finally(() => {
        rotationDone = true;
      }),
      ...patients.map(patientLoop),
    ]);
    expect(statuses).toHaveLength(patients.length * ROUNDS * 2);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    expect(duringRotation).toBeGreaterThan(0);
    expect(rotation.remaining).toBe(0);
    const inUse = await keyIdsInUse(rotated.ctx.db);
    expect(Object.keys(inUse)).toEqual(['t2']);
    for (const patient of patients) {
      expect(await findUserById(rotated.ctx.db, patient.id)).toMatchObject({
        ins: patient.ins,
        parent_ins: lastParentIns.get(patient.id),
        birth_date: '1980-05-17',
      });
    }
  });
});
