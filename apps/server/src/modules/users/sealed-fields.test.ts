import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { URI } from 'otpauth';
import * as oidcClient from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { ConfigError, loadConfig } from '../../config.js';
import type { Db } from '../../db/connection.js';
import { resolveDataKeys } from '../../security/data-keys.js';
import { DataKeyError } from '../../security/field-crypto.js';
import { TEST_DATA_KEYS } from '../../test/data-keys.js';
import type { TestApp } from '../../test/helpers.js';
import {
  ADMIN,
  createTestApp,
  DIALECTS,
  signIn,
  TestClient,
  testConfig,
} from '../../test/helpers.js';
import { loadSigningKeys } from '../oidc/keys.js';
import type { ListeningApp } from '../oidc/test-support.js';
import {
  authorizationRequest,
  authorizeTo,
  Browser,
  listeningTestApp,
  registerPlatform,
  relyingParty,
} from '../oidc/test-support.js';
import { findUserByEmail, findUserById, findUserByIns } from './service.js';

// Issue 21: the health identifiers and birth traits are stored sealed; the INS is found through
// its blind index; the keys live outside the database and a wrong one stops the start.

const PATIENT_INS = '295109912611193';
const PARENT_INS = '185057800608491';
const OTHER_INS = '280017505612325';
const BIRTH_DATE = '1980-05-17';
const BIRTH_PLACE = '75056';
const PASSWORD = 'Sunny-Garden-42';
const TERMS = { cguVersion: '', cguHash: '' };

const registration = (email: string, fields: Record<string, unknown>) => ({
  type: 'patient',
  email,
  password: PASSWORD,
  passwordConfirmation: PASSWORD,
  acceptCgu: true,
  ...TERMS,
  firstName: 'Léa',
  lastName: 'Bernard',
  birthDate: '17/05/1980',
  birthPlaceInsee: BIRTH_PLACE,
  sex: 'female',
  phone: '06 12 34 56 78',
  ...fields,
});

/** What a sign-up leaves to do before signing in (the e-mail and SMS codes), done directly. */
async function verifyContacts(t: TestApp, email: string) {
  await t.ctx.db
    .updateTable('users')
    .set({ email_verified_at: t.clock.now(), phone_verified_at: t.clock.now() })
    .where('email', '=', email)
    .execute();
}

/** Every row of every table of the database (the list read from the database itself), as text. */
async function everyTable(db: Db, dialect: TestApp['dialect']): Promise<Map<string, string>> {
  const tables =
    dialect === 'sqlite'
      ? await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db)
      : await sql<{ name: string }>`
          select table_name as name from information_schema.tables
          where table_schema = current_schema()
        `.execute(db);
  const contents = new Map<string, string>();
  for (const { name } of tables.rows) {
    const { rows } = await sql`select * from ${sql.table(name)}`.execute(db);
    contents.set(name, JSON.stringify(rows));
  }
  return contents;
}

/** The tables holding one of `values` in clear (a code standing alone, not inside a longer token). */
function tablesHolding(contents: Map<string, string>, values: readonly string[]): string[] {
  const found: string[] = [];
  for (const [table, text] of contents) {
    for (const value of values) {
      if (new RegExp(`(^|[^0-9A-Za-z])${value}([^0-9A-Za-z]|$)`).test(text)) {
        found.push(`${table}: ${value}`);
      }
    }
  }
  return found;
}

/** The tables whose rows contain one of `secrets` anywhere (tokens and keys: long, random). */
function tablesContaining(contents: Map<string, string>, secrets: Record<string, string>) {
  const found: string[] = [];
  for (const [table, text] of contents) {
    for (const [name, secret] of Object.entries(secrets)) {
      if (text.includes(secret)) found.push(`${table}: ${name}`);
    }
  }
  return found;
}

const CLEAR_VALUES = [PATIENT_INS, PARENT_INS, BIRTH_DATE, BIRTH_PLACE, '17/05/1980'];
const PLATFORM_CALLBACK = 'http://127.0.0.1:9/scan/callback';

describe.each(DIALECTS)('health identifiers sealed at rest on %s', (dialect) => {
  let t: ListeningApp;
  let patientId: string;
  /** What the patient's platform was given: codes, tokens and the provider session's cookie. */
  const issued: Record<string, string> = {};
  beforeAll(async () => {
    t = await listeningTestApp(dialect);
    const terms = (await new TestClient(t.app).get('/api/cgu')).json<{
      version: string;
      hash: string;
    }>();
    Object.assign(TERMS, { cguVersion: terms.version, cguHash: terms.hash });
    const registered = await new TestClient(t.app).post(
      '/api/register',
      registration('sealed.patient@hygie.test', { socialSecurityNumber: PATIENT_INS }),
    );
    expect(registered.statusCode).toBe(201);
    const professional = await new TestClient(t.app).post(
      '/api/register',
      registration('sealed.pro@hygie.test', {
        type: 'professional',
        identifier: { type: 'RPPS', value: '10101215225' },
        job: 'Infirmière',
      }),
    );
    expect(professional.statusCode).toBe(201);
    const patient = await findUserByEmail(t.ctx.db, 'sealed.patient@hygie.test');
    if (!patient) throw new Error('the patient was not registered');
    patientId = patient.id;
    await verifyContacts(t, 'sealed.patient@hygie.test');
    const client = new TestClient(t.app);
    expect((await signIn(t, client, PATIENT_INS, PASSWORD)).statusCode).toBe(200);
    const edit = await client.request({
      method: 'PATCH',
      url: '/api/profile',
      payload: { parentIns: PARENT_INS },
    });
    expect(edit.statusCode).toBe(200);

    // The patient signs in to a platform, which gets tokens and refreshes them once.
    const admin = new TestClient(t.app);
    await signIn(t, admin, ADMIN.email, ADMIN.password);
    const platform = await registerPlatform(admin, {
      name: 'Scan',
      redirectUris: [PLATFORM_CALLBACK],
    });
    const rp = await relyingParty(t.base, platform);
    const browser = new Browser(client.cookies);
    const start = await authorizationRequest(rp, PLATFORM_CALLBACK);
    const callback = await authorizeTo(browser, t.base, start);
    const tokens = await oidcClient.authorizationCodeGrant(rp, callback, {
      pkceCodeVerifier: start.verifier,
      expectedState: start.state,
    });
    const refreshed = await oidcClient.refreshTokenGrant(rp, tokens.refresh_token ?? '');
    Object.assign(issued, {
      'authorization code': callback.searchParams.get('code') ?? '',
      'access token': tokens.access_token,
      'refresh token': tokens.refresh_token ?? '',
      'refreshed access token': refreshed.access_token,
      'rotated refresh token': refreshed.refresh_token ?? '',
      'provider session cookie': browser.cookies.get('hygie_oidc_session') ?? '',
    });
  });
  afterAll(() => t.close());

  it('stores no INS, parent INS, birth date or birth place in clear in any table', async () => {
    const contents = await everyTable(t.ctx.db, dialect);
    expect(contents.has('users')).toBe(true);
    expect(tablesHolding(contents, CLEAR_VALUES)).toEqual([]);
    const stored = await t.ctx.db
      .selectFrom('users')
      .select([
        'ins',
        'ins_oid',
        'parent_ins',
        'birth_date',
        'birth_place_insee',
        'sex',
        'ins_index',
      ])
      .where('id', '=', patientId)
      .executeTakeFirstOrThrow();
    const { ins_index: index, ...sealed } = stored;
    for (const value of Object.values(sealed)) expect(value).toMatch(/^v1\.t1\.[\w-]{16}\.[\w-]+$/);
    // The index is a keyed HMAC, not the INS nor a plain hash of it.
    expect(index).toMatch(/^[\w-]{43}$/);
  });

  it('stores no private signing key, server secret or token a platform holds in clear in any table', async () => {
    const secrets: Record<string, string> = { ...issued, 'server secret': t.ctx.secret };
    for (const [index, key] of (await loadSigningKeys(t.ctx.db, t.clock.now())).entries()) {
      for (const member of ['d', 'p', 'q']) {
        const value = key[member];
        if (typeof value === 'string') secrets[`signing key ${index} ${member}`] = value;
      }
    }
    expect(Object.keys(secrets)).toHaveLength(10);
    for (const [name, value] of Object.entries(secrets))
      expect([name, value.length > 20]).toEqual([name, true]);
    const contents = await everyTable(t.ctx.db, dialect);
    expect(contents.get('oidc_store')).toMatch(/RefreshToken/);
    expect(tablesContaining(contents, secrets)).toEqual([]);
  });

  it('stores no authenticator app secret in clear in any table (base32, raw bytes as hex or base64)', async () => {
    const client = new TestClient(t.app);
    expect((await signIn(t, client, PATIENT_INS, PASSWORD)).statusCode).toBe(200);
    const enrol = await client.post('/api/me/totp', { currentPassword: PASSWORD });
    expect(enrol.statusCode).toBe(200);
    const app = URI.parse(enrol.json<{ otpauthUri: string }>().otpauthUri);
    const confirmed = await client.post('/api/me/totp/confirm', {
      code: app.generate({ timestamp: t.clock.now() }),
    });
    expect(confirmed.statusCode).toBe(200);
    const raw = Buffer.from(app.secret.bytes);
    expect(raw).toHaveLength(20);
    const secrets = {
      'TOTP secret (base32)': app.secret.base32,
      'TOTP secret (hex)': raw.toString('hex'),
      'TOTP secret (base64)': raw.toString('base64').replace(/=+$/, ''),
      'TOTP secret (base64url)': raw.toString('base64url'),
    };
    const contents = await everyTable(t.ctx.db, dialect);
    expect(tablesContaining(contents, secrets)).toEqual([]);
    const stored = await t.ctx.db
      .selectFrom('users')
      .select('totp_secret')
      .where('id', '=', patientId)
      .executeTakeFirstOrThrow();
    expect(stored.totp_secret).toMatch(/^v1\.t1\.[\w-]{16}\.[\w-]+$/);
  });

  it('stores no recovery code in clear in any table (as shown, without dashes, lower case)', async () => {
    const client = new TestClient(t.app);
    expect((await signIn(t, client, PATIENT_INS, PASSWORD)).statusCode).toBe(200);
    const made = await client.post('/api/me/recovery-codes', { currentPassword: PASSWORD });
    expect(made.statusCode).toBe(200);
    const { codes } = made.json<{ codes: string[] }>();
    expect(codes).toHaveLength(10);
    const secrets: Record<string, string> = {};
    for (const [i, code] of codes.entries()) {
      const compact = code.replace(/-/g, '');
      secrets[`recovery code ${i}`] = code;
      secrets[`recovery code ${i} (compact)`] = compact;
      secrets[`recovery code ${i} (lower case)`] = compact.toLowerCase();
    }
    const contents = await everyTable(t.ctx.db, dialect);
    expect(contents.get('recovery_codes')).toContain(patientId);
    expect(tablesContaining(contents, secrets)).toEqual([]);
  });

  it('hands services the plain values', async () => {
    expect(await findUserById(t.ctx.db, patientId)).toMatchObject({
      ins: PATIENT_INS,
      ins_oid: '1.2.250.1.213.1.4.8',
      parent_ins: PARENT_INS,
      birth_date: BIRTH_DATE,
      birth_place_insee: BIRTH_PLACE,
      sex: 'female',
    });
    expect(await findUserByIns(t.ctx.db, ` ${PATIENT_INS.toLowerCase()} `)).toMatchObject({
      id: patientId,
    });
    // A copy of the row holds them as plain values; an account with none reads null.
    const copy = { ...(await findUserById(t.ctx.db, patientId)) };
    expect(Object.getOwnPropertyDescriptor(copy, 'ins')?.value).toBe(PATIENT_INS);
    expect(copy.sex).toBe('female');
    expect(await findUserByEmail(t.ctx.db, ADMIN.email)).toMatchObject({
      ins: null,
      birth_date: null,
      sex: null,
      totp_secret: null,
    });
  });

  it('keeps the INS-taken rule: a sign-up creates nothing, a profile edit is refused on its field', async () => {
    const again = await new TestClient(t.app).post(
      '/api/register',
      registration('sealed.twin@hygie.test', { socialSecurityNumber: PATIENT_INS }),
    );
    expect(again.statusCode).toBe(201);
    expect(await findUserByEmail(t.ctx.db, 'sealed.twin@hygie.test')).toBeUndefined();

    const other = await new TestClient(t.app).post(
      '/api/register',
      registration('sealed.other@hygie.test', { socialSecurityNumber: OTHER_INS }),
    );
    expect(other.statusCode).toBe(201);
    await verifyContacts(t, 'sealed.other@hygie.test');
    const client = new TestClient(t.app);
    expect((await signIn(t, client, OTHER_INS, PASSWORD)).statusCode).toBe(200);
    const taken = await client.request({
      method: 'PATCH',
      url: '/api/profile',
      payload: { ins: PATIENT_INS },
    });
    expect(taken.statusCode).toBe(400);
    expect(taken.json()).toMatchObject({
      code: 'validation_error',
      data: { fields: [{ path: 'ins', message: 'identifier_taken' }] },
    });
  });

  it('finds the patient in the admin search by INS, and shows the INS', async () => {
    const admin = new TestClient(t.app);
    await signIn(t, admin, ADMIN.email, ADMIN.password);
    const found = await admin.get(`/api/admin/users?q=${encodeURIComponent(PATIENT_INS)}`);
    expect(found.statusCode).toBe(200);
    expect(found.json<{ items: { email: string }[] }>().items).toEqual([
      expect.objectContaining({ email: 'sealed.patient@hygie.test', identifier: PATIENT_INS }),
    ]);
  });

  it('shows the person their own INS and birth traits in their export', async () => {
    const client = new TestClient(t.app);
    expect((await signIn(t, client, PATIENT_INS, PASSWORD)).statusCode).toBe(200);
    const exported = await client.get('/api/me/export');
    expect(exported.statusCode).toBe(200);
    for (const value of [PATIENT_INS, PARENT_INS, BIRTH_DATE, BIRTH_PLACE]) {
      expect(exported.body).toContain(value);
    }
    expect(exported.body).not.toContain('v1.t1.');
  });

  it('refuses a sealed value moved to another column or another account', async () => {
    const stored = await t.ctx.db
      .selectFrom('users')
      .select(['ins', 'parent_ins'])
      .where('id', '=', patientId)
      .executeTakeFirstOrThrow();
    // Another column of the same row: swap the INS and the parent's INS.
    await t.ctx.db
      .updateTable('users')
      .set({ ins: stored.parent_ins, parent_ins: stored.ins })
      .where('id', '=', patientId)
      .execute();
    // The row reads (a sign-in never opens it), each moved value refuses to open, at every read.
    const swapped = await findUserById(t.ctx.db, patientId);
    if (!swapped) throw new Error('no patient');
    expect(swapped.email).toBe('sealed.patient@hygie.test');
    expect(() => swapped.ins).toThrow(DataKeyError);
    expect(() => swapped.ins).toThrow(DataKeyError);
    expect(() => swapped.parent_ins).toThrow(DataKeyError);
    expect(() => ({ ...swapped })).toThrow(DataKeyError);
    expect(swapped.birth_date).toBe(BIRTH_DATE);
    await t.ctx.db.updateTable('users').set(stored).where('id', '=', patientId).execute();
    expect((await findUserById(t.ctx.db, patientId))?.ins).toBe(PATIENT_INS);

    // The same column of another row.
    const other = await findUserByEmail(t.ctx.db, 'sealed.other@hygie.test');
    if (!other) throw new Error('no other patient');
    const otherStored = await t.ctx.db
      .selectFrom('users')
      .select('ins')
      .where('id', '=', other.id)
      .executeTakeFirstOrThrow();
    await t.ctx.db
      .updateTable('users')
      .set({ ins: stored.ins })
      .where('id', '=', other.id)
      .execute();
    const moved = await findUserById(t.ctx.db, other.id);
    expect(() => moved?.ins).toThrow(DataKeyError);
    await t.ctx.db.updateTable('users').set(otherStored).where('id', '=', other.id).execute();
  });

  it('refuses to start with a wrong data key or a wrong index key, in one line naming it', async () => {
    const wrong = randomBytes(32).toString('base64');
    for (const [env, name] of [
      [{ DATA_ENCRYPTION_KEY: `t1:${wrong}` }, 'DATA_ENCRYPTION_KEY'],
      [{ DATA_INDEX_KEY: wrong }, 'DATA_INDEX_KEY'],
    ] as const) {
      const database = t.reopenDatabase();
      try {
        const start = buildApp(testConfig(env), { database, clock: t.clock, logger: false });
        const err: unknown = await start.then(
          () => null,
          (e: unknown) => e,
        );
        expect(err).toBeInstanceOf(ConfigError);
        const message = err instanceof Error ? err.message : '';
        expect(message).toContain(name);
        expect(message).not.toContain('\n');
        expect(message).not.toContain(wrong);
      } finally {
        await database.close();
      }
    }
    // The keys in force are untouched: the running app still opens its values.
    expect((await findUserById(t.ctx.db, patientId))?.ins).toBe(PATIENT_INS);
  });

  it('opens values sealed under an older key after a rotation, and seals new ones with the active key', async () => {
    const database = t.reopenDatabase();
    const rotated = await buildApp(
      testConfig({
        DATA_ENCRYPTION_KEY: `t2:${randomBytes(32).toString('base64')},${TEST_DATA_KEYS.encryption}`,
      }),
      { database, clock: t.clock, logger: false },
    );
    try {
      expect((await findUserById(rotated.ctx.db, patientId))?.ins).toBe(PATIENT_INS);
      const client = new TestClient(rotated.app);
      expect((await signIn(t, client, PATIENT_INS, PASSWORD)).statusCode).toBe(200);
      const edit = await client.request({
        method: 'PATCH',
        url: '/api/profile',
        payload: { parentIns: OTHER_INS },
      });
      expect(edit.statusCode).toBe(200);
      const stored = await rotated.ctx.db
        .selectFrom('users')
        .select(['ins', 'parent_ins'])
        .where('id', '=', patientId)
        .executeTakeFirstOrThrow();
      expect(stored.ins).toMatch(/^v1\.t1\./);
      expect(stored.parent_ins).toMatch(/^v1\.t2\./);
    } finally {
      await rotated.app.close();
    }
  });
});

describe.each(DIALECTS)('an installation upgraded with clear values on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  it('seals them at start-up, fills the INS index, and still signs the patient in', async () => {
    const passwordHash = await t.ctx.passwords.hash(PASSWORD);
    // Rows as the portal wrote them before sealing existed: the values in clear, no index.
    const ids = ['clear-1', 'clear-2', 'clear-3'];
    for (const [i, id] of ids.entries()) {
      await t.ctx.db
        .insertInto('users')
        .values({
          id,
          type: 'person',
          email: `${id}@hygie.test`,
          email_verified_at: 0,
          phone: '+33612345678',
          phone_verified_at: 0,
          password_hash: passwordHash,
          password_changed_at: t.clock.now(),
          must_create_password: 0,
          profile: 'patient',
          status: 'active',
          roles: '[]',
          language: 'fr',
          created_at: 0,
          updated_at: 0,
          cgu_version: '2026-01',
          birth_date: BIRTH_DATE,
          birth_place_insee: BIRTH_PLACE,
          sex: 'female',
          ins: i === 0 ? PATIENT_INS : null,
          ins_oid: i === 0 ? '1.2.250.1.213.1.4.8' : null,
          parent_ins: i === 0 ? PARENT_INS : null,
        })
        .execute();
    }
    expect(tablesHolding(await everyTable(t.ctx.db, dialect), [PATIENT_INS])).toEqual([
      `users: ${PATIENT_INS}`,
    ]);

    // The next start (a second node, or the upgraded server restarting) seals them.
    const database = t.reopenDatabase();
    const restarted = await buildApp(testConfig(), { database, clock: t.clock, logger: false });
    try {
      expect(tablesHolding(await everyTable(t.ctx.db, dialect), CLEAR_VALUES)).toEqual([]);
      const row = await t.ctx.db
        .selectFrom('users')
        .select(['ins', 'ins_index', 'birth_date', 'sex'])
        .where('id', '=', 'clear-1')
        .executeTakeFirstOrThrow();
      expect(row.ins).toMatch(/^v1\.t1\./);
      expect(row.sex).toMatch(/^v1\.t1\./);
      expect(row.ins_index).not.toBeNull();
      expect(await findUserByIns(restarted.ctx.db, PATIENT_INS)).toMatchObject({
        id: 'clear-1',
        ins: PATIENT_INS,
        parent_ins: PARENT_INS,
        birth_date: BIRTH_DATE,
        sex: 'female',
      });
      for (const id of ids.slice(1)) {
        expect(await findUserById(restarted.ctx.db, id)).toMatchObject({
          ins: null,
          birth_place_insee: BIRTH_PLACE,
        });
      }
      const client = new TestClient(restarted.app);
      expect((await signIn(t, client, PATIENT_INS, PASSWORD)).statusCode).toBe(200);
    } finally {
      await restarted.app.close();
    }
    // Idempotent: another start finds nothing left to seal and changes nothing.
    const before = await everyTable(t.ctx.db, dialect);
    const again = await buildApp(testConfig(), {
      database: t.reopenDatabase(),
      clock: t.clock,
      logger: false,
    });
    await again.app.close();
    expect((await everyTable(t.ctx.db, dialect)).get('users')).toBe(before.get('users'));
  });
});

describe('data keys configuration', () => {
  const DELIVERY = { SMTP_URL: 'smtp://mail.example', SMS_GATEWAY_URL: 'https://sms.example' };

  it('refuses production without keys, in one line naming the variable', () => {
    for (const [env, name] of [
      [{}, 'DATA_ENCRYPTION_KEY'],
      [{ DATA_ENCRYPTION_KEY: TEST_DATA_KEYS.encryption }, 'DATA_INDEX_KEY'],
    ] as const) {
      const load = () => loadConfig({ NODE_ENV: 'production', ...DELIVERY, ...env });
      expect(load).toThrow(ConfigError);
      expect(load).toThrow(
        new RegExp(`^Invalid configuration: NODE_ENV=production needs ${name} `),
      );
      expect(load).not.toThrow(/\n/);
    }
    const config = loadConfig({
      NODE_ENV: 'production',
      ...DELIVERY,
      DATA_ENCRYPTION_KEY: TEST_DATA_KEYS.encryption,
      DATA_INDEX_KEY: TEST_DATA_KEYS.index,
    });
    expect(config.dataKeys.encryption?.map((k) => k.id)).toEqual(['t1']);
  });

  it('reads several keys, the active one first, from the variable or its file', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hygie-keys-'));
    const file = path.join(dir, 'data-key');
    const a = randomBytes(32).toString('base64');
    const b = randomBytes(32).toString('base64');
    fs.writeFileSync(file, `new:${a}, old:${b}\n`);
    const fromFile = loadConfig({ DATA_ENCRYPTION_KEY_FILE: file, DATA_INDEX_KEY: a });
    expect(fromFile.dataKeys.encryption?.map((k) => k.id)).toEqual(['new', 'old']);
    expect(fromFile.dataKeys.encryption?.[0]?.key.toString('base64')).toBe(a);
    expect(loadConfig({ DATA_ENCRYPTION_KEY: a }).dataKeys.encryption?.[0]?.id).toBe('1');
    fs.rmSync(dir, { recursive: true });
  });

  it.each([
    [{ DATA_ENCRYPTION_KEY: 'k1:c2hvcnQ=' }, 'DATA_ENCRYPTION_KEY: key "k1": expected 32 bytes'],
    [{ DATA_ENCRYPTION_KEY: `a.b:${Buffer.alloc(32).toString('base64')}` }, 'key id "a.b"'],
    [{ DATA_INDEX_KEY: 'not base64!' }, 'DATA_INDEX_KEY: expected 32 bytes'],
    [
      { DATA_INDEX_KEY_FILE: '/nonexistent/hygie-key' },
      'DATA_INDEX_KEY_FILE="/nonexistent/hygie-key": cannot read',
    ],
  ])('refuses %j, naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('generates development keys into DATA_DIR once (mode 0600), then reads them back', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hygie-dev-keys-'));
    const config = loadConfig({ DATA_DIR: dir });
    expect(config.dataKeys).toEqual({ encryption: null, index: null });
    const first = resolveDataKeys(config);
    const file = path.join(dir, 'data-keys.json');
    expect(first.note).toMatch(/^data keys: generated into .*data-keys\.json/);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const second = resolveDataKeys(config);
    expect(second.note).toMatch(/^data keys: read from /);
    expect(second.keyring).toEqual(first.keyring);
    fs.rmSync(dir, { recursive: true });
  });
});
