import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { ConfigError } from '../../config.js';
import { blindIndex, DataKeyError, installDataKeys } from '../../security/field-crypto.js';
import { INDEX_KEY_CHECK, indexKeyCheck } from '../../security/key-checks.js';
import { TEST_DATA_KEYS, TEST_KEYRING } from '../../test/data-keys.js';
import type { TestApp } from '../../test/helpers.js';
import { createTestApp, DIALECTS, signIn, TestClient, testConfig } from '../../test/helpers.js';
import type { Patient } from '../../test/patients.js';
import {
  addAccounts,
  insNumber,
  LONG_SESSIONS,
  PASSWORD,
  registerPatients,
} from '../../test/patients.js';
import { findSettingValue } from '../settings/service.js';
import { checkIndexRebuild, rebuildIndexes } from './index-rebuild.js';
import { createUser } from './service.js';

// Issue 21, index-key change: the INS indexes built under the old index key (the tests' key) are
// rebuilt under a new one while the nodes run with DATA_INDEX_KEY="new,old": sign-in by INS, the
// INS-taken rule and the admin search keep working throughout, and the check value moves last.

const NEW_INDEX = Buffer.alloc(32, 21);
const OLD_INDEX = TEST_KEYRING.index;
const BOTH = `${NEW_INDEX.toString('base64')},${TEST_DATA_KEYS.index}`;

const BULK = 150;

const indexUnder = (key: Buffer, ins: string) =>
  blindIndex({ keys: [], index: key }, 'users.ins', ins);

/** Another node of the same database, started with `env`'s keys (on the test's clock). */
async function node(t: TestApp, env: Record<string, string>): Promise<TestApp> {
  const built = await buildApp(testConfig({ ...LONG_SESSIONS, ...env }), {
    database: t.reopenDatabase(),
    clock: t.clock,
    logger: false,
  });
  return { ...t, ...built, close: () => built.app.close() };
}

async function storedIndexes(t: TestApp, patients: readonly Patient[]) {
  const rows = await t.ctx.db
    .selectFrom('users')
    .select(['id', 'ins_index'])
    .where(
      'id',
      'in',
      patients.map((p) => p.id),
    )
    .execute();
  return new Map(rows.map((row) => [row.id, row.ins_index]));
}

/** The admin search's answer for `q`: the e-mails found. */
async function adminSearch(t: TestApp, q: string): Promise<string[]> {
  const admin = new TestClient(t.app);
  expect((await signIn(t, admin)).statusCode).toBe(200);
  const found = await admin.get(`/api/admin/users?q=${encodeURIComponent(q)}`);
  return found.json<{ items: { email: string }[] }>().items.map((item) => item.email);
}

async function registerWith(t: TestApp, email: string, ins: string) {
  const terms = (await new TestClient(t.app).get('/api/cgu')).json<{
    version: string;
    hash: string;
  }>();
  return new TestClient(t.app).post('/api/register', {
    type: 'patient',
    email,
    password: PASSWORD,
    passwordConfirmation: PASSWORD,
    acceptCgu: true,
    cguVersion: terms.version,
    cguHash: terms.hash,
    firstName: 'Inès',
    lastName: 'Robert',
    birthDate: '17/05/1980',
    birthPlaceInsee: '75056',
    sex: 'female',
    phone: '06 12 34 56 79',
    socialSecurityNumber: ins,
  });
}

afterAll(() => installDataKeys(TEST_KEYRING));

describe.each(DIALECTS)('index-key rebuild on %s', (dialect) => {
  let t: TestApp;
  let rebuilding: TestApp;
  let patients: Patient[];
  beforeAll(async () => {
    t = await createTestApp(dialect, { env: LONG_SESSIONS });
    patients = await registerPatients(t, 8, 'reindex');
    await addAccounts(t, 20, 'no-ins');
    // The bulk a rebuild goes through (INS without a password).
    for (let i = 0; i < BULK; i++) {
      await createUser(t.ctx, t.ctx.db, {
        email: `bulk.${i}@hygie.test`,
        passwordHash: null,
        profile: 'patient',
        status: 'active',
        language: 'fr',
        ins: insNumber(200 + i),
      });
    }
    // Every node restarted with the new index key first and the old one after it.
    rebuilding = await node(t, { DATA_INDEX_KEY: BOTH });
  }, 60_000);
  afterAll(async () => {
    await rebuilding.close();
    await t.close();
  });

  it('finds every INS under either key and refuses a taken one while indexes are under the old key', async () => {
    expect(await checkIndexRebuild(rebuilding.ctx)).toEqual({
      indexes: patients.length + BULK,
      remaining: patients.length + BULK,
      checkValueMoved: false,
    });
    const [first, second] = patients;
    if (!first || !second) throw new Error('no patients');
    expect((await storedIndexes(rebuilding, [first])).get(first.id)).toBe(
      indexUnder(OLD_INDEX, first.ins),
    );
    expect(
      (await signIn(rebuilding, new TestClient(rebuilding.app), first.ins, PASSWORD)).statusCode,
    ).toBe(200);

    expect(await adminSearch(rebuilding, first.ins)).toEqual([first.email]);

    // A sign-up with that INS: the same answer as a free one, and no second account.
    const taken = await registerWith(rebuilding, 'taker@hygie.test', first.ins);
    expect(taken.statusCode).toBe(201);
    expect(
      await rebuilding.ctx.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', 'taker@hygie.test')
        .executeTakeFirst(),
    ).toBeUndefined();
    // A profile edit taking it: refused, nothing written.
    const client = new TestClient(rebuilding.app);
    expect((await signIn(rebuilding, client, second.ins, PASSWORD)).statusCode).toBe(200);
    const edit = await client.request({
      method: 'PATCH',
      url: '/api/profile',
      payload: { ins: first.ins },
    });
    expect(edit.statusCode).toBe(400);
    expect(edit.json<{ code: string }>().code).toBe('validation_error');
    expect((await client.get('/api/profile')).json<{ ins: string }>().ins).toBe(second.ins);

    // A new sign-up is indexed under the new key only.
    const fresh = insNumber(900);
    expect((await registerWith(rebuilding, 'fresh@hygie.test', fresh)).statusCode).toBe(201);
    const row = await rebuilding.ctx.db
      .selectFrom('users')
      .select('ins_index')
      .where('email', '=', 'fresh@hygie.test')
      .executeTakeFirstOrThrow();
    expect(row.ins_index).toBe(indexUnder(NEW_INDEX, fresh));
    await rebuilding.ctx.db.deleteFrom('users').where('email', '=', 'fresh@hygie.test').execute();
  }, 60_000);

  it('stops on a duplicate INS it cannot settle, naming both accounts, and writes nothing of that batch', async () => {
    const [first, , third] = patients;
    if (!first || !third) throw new Error('no patients');
    const other = await rebuilding.ctx.db
      .selectFrom('users')
      .select(['id', 'ins_index'])
      .where('email', '=', 'no-ins.0@hygie.test')
      .executeTakeFirstOrThrow();
    // As a node without the new key in front would let happen: the INS twice, under each key.
    await rebuilding.ctx.db
      .updateTable('users')
      .set({ ins_index: indexUnder(NEW_INDEX, first.ins) })
      .where('id', '=', other.id)
      .execute();
    try {
      const before = await storedIndexes(rebuilding, patients);
      const err: unknown = await rebuildIndexes(rebuilding.ctx, { batchSize: 100 }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(DataKeyError);
      expect(err instanceof Error ? err.message : '').toBe(
        `accounts ${first.id} and ${other.id} hold the same INS (one written by a node without the new index key?): settle it, then run again; this batch wrote nothing`,
      );
      expect(await storedIndexes(rebuilding, patients)).toEqual(before);
      expect(before.get(third.id)).toBe(indexUnder(OLD_INDEX, third.ins));
    } finally {
      await rebuilding.ctx.db
        .updateTable('users')
        .set({ ins_index: other.ins_index })
        .where('id', '=', other.id)
        .execute();
    }
  });

  it('rebuilds in batches, resumably, under concurrent sign-ins by INS, then moves the check value', async () => {
    const partial = await rebuildIndexes(rebuilding.ctx, { batchSize: 3, maxBatches: 1 });
    expect(partial).toMatchObject({
      rebuilt: 3,
      batches: 1,
      stopped: true,
      checkValueMoved: false,
    });
    expect(partial.remaining).toBe(patients.length + BULK - 3);
    expect(await findSettingValue(rebuilding.ctx.db, INDEX_KEY_CHECK)).toBe(
      indexKeyCheck(OLD_INDEX),
    );

    // Meanwhile a node restarted with the old key alone, or with another new key, is refused.
    for (const [indexKey, line] of [
      [
        OLD_INDEX.toString('base64'),
        'Invalid configuration: DATA_INDEX_KEY: an index-key change is under way: put the new key first and this one after it until data:rotate-key --index ends (docs/deployment.md)',
      ],
      [
        `${Buffer.alloc(32, 22).toString('base64')},${OLD_INDEX.toString('base64')}`,
        'Invalid configuration: DATA_INDEX_KEY: its first key is not the new index key the other nodes are moving to (an index-key change is under way: see docs/deployment.md)',
      ],
    ] as const) {
      const database = t.reopenDatabase();
      try {
        const start = buildApp(testConfig({ ...LONG_SESSIONS, DATA_INDEX_KEY: indexKey }), {
          database,
          clock: t.clock,
          logger: false,
        });
        await expect(start).rejects.toThrow(ConfigError);
        await expect(start).rejects.toThrow(line);
      } finally {
        await database.close();
      }
    }

    // The rest in steps of one batch (each a new run: resumable), every patient signing in by INS
    // at the same time as each step, so sign-ins meet every mix of rebuilt and not rebuilt yet.
    const failures: string[] = [];
    let signIns = 0;
    const clients = patients.map(() => new TestClient(rebuilding.app));
    const signInAll = () =>
      Promise.all(
        patients.map(async (patient, i) => {
          const res = await (clients[i] ?? new TestClient(rebuilding.app)).login(
            patient.ins,
            PASSWORD,
          );
          // The password is right: the answer is the second factor (the client is not trusted).
          const code = res.json<{ code?: string }>().code;
          if (res.statusCode !== 200 && code !== 'two_factor_authentication_required') {
            failures.push(`${patient.ins}: ${res.statusCode} ${res.body}`);
          }
          signIns += 1;
        }),
      );
    let steps = 0;
    for (;;) {
      // And a sign-up taking a patient's INS, rebuilt or not yet: never a second account.
      const taker = patients[steps % patients.length];
      const [step] = await Promise.all([
        rebuildIndexes(rebuilding.ctx, { batchSize: 20, maxBatches: 1 }),
        signInAll(),
        taker ? registerWith(rebuilding, `race.${steps}@hygie.test`, taker.ins) : undefined,
      ]);
      steps += 1;
      if (step.remaining === 0) break;
      expect(step.rebuilt).toBeGreaterThan(0);
    }
    // The last run finds nothing left: it moves the check value (sign-ins meanwhile too).
    const [done] = await Promise.all([rebuildIndexes(rebuilding.ctx), signInAll()]);
    expect(steps).toBeGreaterThan(5);
    const races = await rebuilding.ctx.db
      .selectFrom('users')
      .select('email')
      .where('email', 'like', 'race.%')
      .execute();
    expect(races).toEqual([]);
    expect(failures).toEqual([]);
    expect(signIns).toBe(patients.length * (steps + 1));
    expect(done).toMatchObject({
      indexes: patients.length + BULK,
      remaining: 0,
      rebuilt: 0,
      stopped: false,
      checkValueMoved: true,
    });
    expect(await findSettingValue(rebuilding.ctx.db, INDEX_KEY_CHECK)).toBe(
      indexKeyCheck(NEW_INDEX),
    );
    const stored = await storedIndexes(rebuilding, patients);
    for (const patient of patients) {
      expect(stored.get(patient.id)).toBe(indexUnder(NEW_INDEX, patient.ins));
    }
    const [first] = patients;
    expect(await adminSearch(rebuilding, first?.ins ?? '')).toEqual([first?.email]);
    // Run again: nothing to do.
    expect(await rebuildIndexes(rebuilding.ctx)).toMatchObject({
      rebuilt: 0,
      remaining: 0,
      checkValueMoved: true,
    });
  }, 120_000);

  it('then starts with the new key alone, where every INS signs in and stays unique; the old key alone is refused', async () => {
    const database = t.reopenDatabase();
    try {
      const refused = buildApp(testConfig({ ...LONG_SESSIONS }), {
        database,
        clock: t.clock,
        logger: false,
      });
      await expect(refused).rejects.toThrow(ConfigError);
      await expect(refused).rejects.toThrow(
        /^Invalid configuration: DATA_INDEX_KEY is not the key this database’s INS index was built with/,
      );
    } finally {
      await database.close();
    }

    const after = await node(t, { DATA_INDEX_KEY: NEW_INDEX.toString('base64') });
    try {
      for (const patient of patients) {
        const res = await signIn(after, new TestClient(after.app), patient.ins, PASSWORD);
        expect(res.statusCode).toBe(200);
      }
      const [first] = patients;
      if (!first) throw new Error('no patient');
      expect((await registerWith(after, 'taker2@hygie.test', first.ins)).statusCode).toBe(201);
      expect(
        await after.ctx.db
          .selectFrom('users')
          .select('id')
          .where('email', '=', 'taker2@hygie.test')
          .executeTakeFirst(),
      ).toBeUndefined();
    } finally {
      await after.close();
    }
  }, 60_000);
});
