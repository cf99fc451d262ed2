import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuiltApp } from '../../app.js';
import { buildApp } from '../../app.js';
import { loadSecret } from '../../bootstrap.js';
import type { Db } from '../../db/connection.js';
import { DataKeyError, installDataKeys, open } from '../../security/field-crypto.js';
import { TEST_DATA_KEYS, TEST_KEYRING } from '../../test/data-keys.js';
import type { TestApp } from '../../test/helpers.js';
import { createTestApp, DIALECTS, signIn, TestClient, testConfig } from '../../test/helpers.js';
import { LONG_SESSIONS } from '../../test/patients.js';
import { loadSigningKeys, SIGNING_KEYS_SETTING } from '../oidc/keys.js';
import { checkDataKeyRotation, rotateDataKey } from '../users/key-rotation.js';
import { findSettingValue } from './service.js';

// Issue 21: the settings that hold a secret the portal reads back — the cookie and token secret
// generated when SESSION_SECRET is unset, and the OIDC provider's private signing keys — are
// stored sealed with the data key, named in the additional data, sealed at start when an upgrade
// finds them in clear (same content: no session or token lost), and re-sealed by a rotation.

const SECRET = 'internal.secret';
const KEY_B = `t2:${Buffer.alloc(32, 11).toString('base64')}`;

async function raw(db: Db, key: string): Promise<string> {
  const row = await db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', key)
    .executeTakeFirstOrThrow();
  return row.value;
}

async function setRaw(db: Db, key: string, value: string): Promise<void> {
  await db.updateTable('settings').set({ value }).where('key', '=', key).execute();
}

/** The sealed text a stored value holds (a JSON string `v1.…`), or throws. */
function sealedText(stored: string): string {
  const parsed: unknown = JSON.parse(stored);
  if (typeof parsed !== 'string') throw new Error(`not a sealed setting: ${stored.slice(0, 20)}`);
  return parsed;
}

/** Another start on the same database (a second node, or a restart). */
function restart(t: TestApp, env: Record<string, string> = {}): Promise<BuiltApp> {
  return buildApp(testConfig({ ...LONG_SESSIONS, ...env }), {
    database: t.reopenDatabase(),
    clock: t.clock,
    logger: false,
  });
}

afterAll(() => installDataKeys(TEST_KEYRING));

describe.each(DIALECTS)('secret settings sealed at rest on %s', (dialect) => {
  let t: TestApp;
  let admin: TestClient;
  beforeAll(async () => {
    t = await createTestApp(dialect, { env: LONG_SESSIONS });
    admin = new TestClient(t.app);
    expect((await signIn(t, admin)).statusCode).toBe(200);
  });
  afterAll(() => t.close());

  it('stores the server secret and the private signing keys sealed, and reads them back', async () => {
    const secret = await raw(t.ctx.db, SECRET);
    const keys = await raw(t.ctx.db, SIGNING_KEYS_SETTING);
    for (const stored of [secret, keys]) expect(sealedText(stored)).toMatch(/^v1\.t1\./);
    expect(secret).not.toContain(t.ctx.secret);
    const [signing] = await loadSigningKeys(t.ctx.db, t.clock.now());
    if (!signing) throw new Error('no signing key');
    for (const member of ['d', 'p', 'q', 'dp', 'dq', 'qi']) {
      const value = signing[member];
      expect(typeof value).toBe('string');
      expect(keys).not.toContain(value);
    }
    // Sealed for its setting: the additional data names it.
    const context = `settings.value:${SECRET}`;
    expect(open(TEST_KEYRING, context, sealedText(secret))).toBe(JSON.stringify(t.ctx.secret));
    expect(() =>
      open(TEST_KEYRING, `settings.value:${SIGNING_KEYS_SETTING}`, sealedText(secret)),
    ).toThrow(DataKeyError);
  });

  it('refuses a sealed value moved under another setting', async () => {
    const keys = await raw(t.ctx.db, SIGNING_KEYS_SETTING);
    await setRaw(t.ctx.db, SIGNING_KEYS_SETTING, await raw(t.ctx.db, SECRET));
    try {
      await expect(findSettingValue(t.ctx.db, SIGNING_KEYS_SETTING)).rejects.toThrow(DataKeyError);
    } finally {
      await setRaw(t.ctx.db, SIGNING_KEYS_SETTING, keys);
    }
  });

  it('seals the clear values of an upgraded installation at start, content unchanged: sessions and signing keys survive', async () => {
    const before = await loadSigningKeys(t.ctx.db, t.clock.now());
    // As an installation from before sealing stored them.
    await setRaw(t.ctx.db, SECRET, JSON.stringify(t.ctx.secret));
    await setRaw(t.ctx.db, SIGNING_KEYS_SETTING, JSON.stringify({ keys: before }));
    // Read in clear until then (a node of the old version may still be running).
    expect(await loadSigningKeys(t.ctx.db, t.clock.now())).toEqual(before);

    const restarted = await restart(t);
    try {
      for (const key of [SECRET, SIGNING_KEYS_SETTING]) {
        expect(sealedText(await raw(t.ctx.db, key))).toMatch(/^v1\.t1\./);
      }
      expect(restarted.ctx.secret).toBe(t.ctx.secret);
      expect(await loadSigningKeys(restarted.ctx.db, t.clock.now())).toEqual(before);
      // The session cookie signed with the secret before the upgrade still signs the admin in.
      const carried = new TestClient(restarted.app);
      for (const [name, value] of admin.cookies) carried.cookies.set(name, value);
      expect((await carried.get('/api/me')).statusCode).toBe(200);
      const published = (await restarted.app.inject({ url: '/oidc/jwks' })).json<{
        keys: { kid: string; n: string }[];
      }>();
      expect(published.keys).toEqual([
        expect.objectContaining({ kid: before[0]?.kid, n: before[0]?.n }),
      ]);
      // Idempotent: the next start finds nothing to seal and rewrites nothing.
      const sealed = await raw(t.ctx.db, SECRET);
      const again = await restart(t);
      await again.app.close();
      expect(await raw(t.ctx.db, SECRET)).toBe(sealed);
    } finally {
      await restarted.app.close();
    }
  });

  it('has nodes starting together agree on one secret and one key set, stored sealed', async () => {
    const secret = await raw(t.ctx.db, SECRET);
    const keys = await raw(t.ctx.db, SIGNING_KEYS_SETTING);
    await t.ctx.db
      .deleteFrom('settings')
      .where('key', 'in', [SECRET, SIGNING_KEYS_SETTING])
      .execute();
    const nodes = [t.reopenDatabase(), t.reopenDatabase(), t.reopenDatabase()];
    try {
      const secrets = await Promise.all(
        nodes.map((node) => loadSecret(node.db, undefined, t.clock.now())),
      );
      expect(new Set(secrets).size).toBe(1);
      const sets = await Promise.all(nodes.map((node) => loadSigningKeys(node.db, t.clock.now())));
      expect(new Set(sets.map((set) => set[0]?.kid)).size).toBe(1);
      expect(sealedText(await raw(t.ctx.db, SECRET))).toMatch(/^v1\.t1\./);
      expect(sealedText(await raw(t.ctx.db, SIGNING_KEYS_SETTING))).toMatch(/^v1\.t1\./);
      expect(await raw(t.ctx.db, SECRET)).not.toContain(secrets[0] ?? '?');
    } finally {
      await Promise.all(nodes.map((node) => node.close()));
      await setRaw(t.ctx.db, SECRET, secret);
      await setRaw(t.ctx.db, SIGNING_KEYS_SETTING, keys);
    }
  });

  it('are counted by data:rotate-key --check and re-sealed by the rotation, content unchanged', async () => {
    const keys = await loadSigningKeys(t.ctx.db, t.clock.now());
    const rotated = await restart(t, {
      DATA_ENCRYPTION_KEY: `${KEY_B},${TEST_DATA_KEYS.encryption}`,
    });
    try {
      const check = await checkDataKeyRotation(rotated.ctx);
      // The admin account holds no sealed person field: the two settings are all there is.
      expect(check).toEqual({ activeKey: 't2', byKey: { t1: 2 }, remaining: 2 });
      const rotation = await rotateDataKey(rotated.ctx);
      expect(rotation).toMatchObject({ resealed: 2, remaining: 0, byKey: { t2: 2 } });
      for (const key of [SECRET, SIGNING_KEYS_SETTING]) {
        expect(sealedText(await raw(t.ctx.db, key))).toMatch(/^v1\.t2\./);
      }
    } finally {
      await rotated.app.close();
    }
    // Only B now: the same secret and keys open.
    const onlyB = await restart(t, { DATA_ENCRYPTION_KEY: KEY_B });
    try {
      expect(onlyB.ctx.secret).toBe(t.ctx.secret);
      expect(await loadSigningKeys(onlyB.ctx.db, t.clock.now())).toEqual(keys);
    } finally {
      await onlyB.app.close();
    }
  });
});
