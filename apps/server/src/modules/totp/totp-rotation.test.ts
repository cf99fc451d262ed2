import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { URI } from 'otpauth';
import type { BuiltApp } from '../../app.js';
import { buildApp } from '../../app.js';
import { installDataKeys } from '../../security/field-crypto.js';
import { TEST_DATA_KEYS, TEST_KEYRING } from '../../test/data-keys.js';
import type { TestApp } from '../../test/helpers.js';
import {
  createTestApp,
  createUser,
  DIALECTS,
  signIn,
  TestClient,
  testConfig,
} from '../../test/helpers.js';
import { LONG_SESSIONS } from '../../test/patients.js';
import { checkDataKeyRotation, rotateDataKey } from '../users/key-rotation.js';

// `data:rotate-key` re-seals the authenticator apps' secrets with the other sealed values, and
// `--check` counts them: an app enrolled under key A still gives codes the portal accepts once
// every value is under key B.

const KEY_B = `t2:${Buffer.alloc(32, 21).toString('base64')}`;

afterAll(() => installDataKeys(TEST_KEYRING));

describe.each(DIALECTS)('rotating the data key with authenticator apps on %s', (dialect) => {
  let t: TestApp;
  let rotated: BuiltApp;
  const email = 'totp-rotation@hygie.test';
  const password = 'Totp-Rotati0n-Passw0rd';
  let userId: string;
  let otpauthUri: string;

  beforeAll(async () => {
    t = await createTestApp(dialect, { env: LONG_SESSIONS });
    userId = await createUser(t, { email, password, phone: '+33657300001' });
    const client = new TestClient(t.app);
    expect((await signIn(t, client, email, password)).statusCode).toBe(200);
    otpauthUri = (await client.post('/api/me/totp', { currentPassword: password })).json<{
      otpauthUri: string;
    }>().otpauthUri;
    const code = URI.parse(otpauthUri).generate({ timestamp: t.clock.now() });
    expect((await client.post('/api/me/totp/confirm', { code })).statusCode).toBe(200);
    rotated = await buildApp(
      testConfig({
        DATA_ENCRYPTION_KEY: `${KEY_B},${TEST_DATA_KEYS.encryption}`,
        ...LONG_SESSIONS,
      }),
      { database: t.reopenDatabase(), clock: t.clock, logger: false },
    );
  });
  afterAll(async () => {
    await rotated.app.close();
    await t.close();
  });

  const storedSecret = async () =>
    (
      await rotated.ctx.db
        .selectFrom('users')
        .select('totp_secret')
        .where('id', '=', userId)
        .executeTakeFirstOrThrow()
    ).totp_secret;

  it('counts the secret under its key, re-seals it, and the app still signs in', async () => {
    expect(await storedSecret()).toMatch(/^v1\.t1\./);
    const before = await checkDataKeyRotation(rotated.ctx);
    // The person's six sealed person fields (none but the birth traits here) and the secret.
    const sealedFields = await rotated.ctx.db
      .selectFrom('users')
      .select(['birth_date', 'birth_place_insee', 'sex', 'ins', 'ins_oid', 'parent_ins'])
      .execute();
    const personValues = sealedFields
      .flatMap((row) => Object.values(row))
      .filter((v) => v !== null).length;
    expect(before.byKey.t1).toBeGreaterThanOrEqual(personValues + 1);

    const done = await rotateDataKey(rotated.ctx);
    expect(done).toMatchObject({ remaining: 0, stopped: false });
    expect(await storedSecret()).toMatch(/^v1\.t2\./);
    expect((await checkDataKeyRotation(rotated.ctx)).byKey.t1).toBeUndefined();

    const client = new TestClient(rotated.app);
    t.clock.advance(13 * 60_000);
    expect((await client.login(email, password)).statusCode).toBe(401);
    const code = URI.parse(otpauthUri).generate({ timestamp: t.clock.now() });
    const res = await client.post('/api/mfa/verify', { provider: 'totp', code });
    expect(res.statusCode).toBe(200);
  });

  it('--check counts one value more for each secret', async () => {
    const withSecret = (await checkDataKeyRotation(rotated.ctx)).byKey.t2 ?? 0;
    await rotated.ctx.db
      .updateTable('users')
      .set({ totp_secret: null, totp_enabled_at: null })
      .where('id', '=', userId)
      .execute();
    expect((await checkDataKeyRotation(rotated.ctx)).byKey.t2).toBe(withSecret - 1);
  });
});
