import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import type { Db } from '../../db/connection.js';
import {
  blindIndex,
  DataKeyError,
  installDataKeys,
  isSealed,
  open,
} from '../../security/field-crypto.js';
import { TEST_DATA_KEYS, TEST_KEYRING } from '../../test/data-keys.js';
import { DIALECTS, signIn, TestClient, testConfig } from '../../test/helpers.js';
import { keyIdsInUse } from '../../test/patients.js';
import { checkDataKeyRotation, rotateDataKey } from '../users/key-rotation.js';
import type { Browser, ListeningApp } from './test-support.js';
import {
  authorizationRequest,
  authorizeTo,
  listeningTestApp,
  registerPlatform,
  relyingParty,
  signedInBrowser,
} from './test-support.js';
import { explain } from '../../test/query-log.js';
import { adapterFactory } from './adapter.js';
import { findArtefact, findArtefactBy, upsertArtefact } from './repository.js';

// Issue 21: the provider's opaque tokens, codes and sessions are bearer secrets. Their rows are
// stored under a keyed hash of the id with the payload sealed, so a stolen dump holds no usable
// token; rows written in clear before the upgrade are moved at start and keep working.

const CALLBACK = 'http://127.0.0.1:9/sealed/callback';
const USER = {
  email: 'sealed.rp@hygie.test',
  password: 'Sealed-Passw0rd!',
  phone: '+33612345670',
};
const SESSION_COOKIE = 'hygie_oidc_session';
const KEY_B_BYTES = Buffer.alloc(32, 11);
const KEY_B = `t2:${KEY_B_BYTES.toString('base64')}`;

interface Row {
  id: string;
  model: string;
  payload: string;
  user_code: string | null;
}

function rows(db: Db): Promise<Row[]> {
  return db.selectFrom('oidc_store').select(['id', 'model', 'payload', 'user_code']).execute();
}

/** The row's payload as the provider gave it (opened with the test keys, A and B). */
function plainPayload(row: Row): { jti: string } & Record<string, unknown> {
  const keyring = { ...TEST_KEYRING, keys: [...TEST_KEYRING.keys, { id: 't2', key: KEY_B_BYTES }] };
  const parsed: unknown = JSON.parse(
    isSealed(row.payload)
      ? open(keyring, `oidc_store.payload:${row.id}`, row.payload)
      : row.payload,
  );
  if (typeof parsed !== 'object' || parsed === null || !('jti' in parsed)) {
    throw new Error(`no jti in ${row.id}`);
  }
  const { jti } = parsed;
  if (typeof jti !== 'string') throw new Error(`no jti in ${row.id}`);
  return { ...parsed, jti };
}

describe.each(DIALECTS)('OIDC artefacts sealed at rest on %s', (dialect) => {
  let t: ListeningApp;
  let rp: client.Configuration;
  let browser: Browser;
  let userId: string;

  beforeAll(async () => {
    t = await listeningTestApp(dialect);
    const admin = new TestClient(t.app);
    await signIn(t, admin);
    const platform = await registerPlatform(admin, { name: 'Sealed', redirectUris: [CALLBACK] });
    rp = await relyingParty(t.base, platform);
    ({ browser, userId } = await signedInBrowser(t, USER));
  });
  afterAll(async () => {
    await t.close();
    installDataKeys(TEST_KEYRING);
  });

  async function codeFlow() {
    const start = await authorizationRequest(rp, CALLBACK);
    const callback = await authorizeTo(browser, t.base, start);
    const code = callback.searchParams.get('code') ?? '';
    const tokens = await client.authorizationCodeGrant(rp, callback, {
      pkceCodeVerifier: start.verifier,
      expectedState: start.state,
    });
    return { code, tokens };
  }

  const userinfo = (accessToken: string) =>
    fetch(`${t.base}/oidc/me`, { headers: { authorization: `Bearer ${accessToken}` } });

  it('keeps no token, code or session id in a row id or payload, and the tokens still work', async () => {
    const { code, tokens } = await codeFlow();
    const refreshToken = tokens.refresh_token ?? '';
    expect(refreshToken).not.toBe('');
    const refreshed = await client.refreshTokenGrant(rp, refreshToken);
    const session = browser.cookies.get(SESSION_COOKIE) ?? '';
    expect(session).not.toBe('');
    const secrets = [
      code,
      tokens.access_token,
      refreshToken,
      refreshed.access_token,
      refreshed.refresh_token ?? '',
      session,
    ];
    const stored = await rows(t.ctx.db);
    expect(stored.map((row) => row.model)).toEqual(
      expect.arrayContaining([
        'Session',
        'Grant',
        'AuthorizationCode',
        'AccessToken',
        'RefreshToken',
      ]),
    );
    const dump = JSON.stringify(stored);
    for (const secret of secrets) expect(dump).not.toContain(secret);
    for (const row of stored) {
      expect(row.id).toMatch(new RegExp(`^${row.model}:[\\w-]{43}$`));
      expect(row.payload).toMatch(/^v1\.t1\./);
    }
    // The payloads are the provider's, sealed: the refresh token's row says so once opened.
    const refreshRow = stored.find(
      (row) => row.model === 'RefreshToken' && plainPayload(row).jti === refreshed.refresh_token,
    );
    expect(refreshRow?.id).toBe(
      `RefreshToken:${blindIndex(TEST_KEYRING, 'oidc_store.id', `RefreshToken:${refreshed.refresh_token ?? ''}`)}`,
    );

    expect((await userinfo(refreshed.access_token)).status).toBe(200);
    const again = await client.refreshTokenGrant(rp, refreshed.refresh_token ?? '');
    expect((await userinfo(again.access_token)).status).toBe(200);
  });

  it('finds a token by its id, and a session by its uid, in one indexed statement', async () => {
    const stored = await rows(t.ctx.db);
    const refresh = stored.find((row) => row.model === 'RefreshToken');
    const session = stored.find((row) => row.model === 'Session');
    if (!refresh || !session) throw new Error('a refresh token and a session expected');
    const { jti } = plainPayload(refresh);
    const uid = plainPayload(session).uid;
    if (typeof uid !== 'string') throw new Error('a session uid expected');
    const adapter = adapterFactory(t.ctx.db);
    for (const [lookup, index] of [
      [() => adapter('RefreshToken').find(jti), /oidc_store_pkey|sqlite_autoindex_oidc_store/],
      [() => adapter('Session').findByUid(uid), /oidc_store_uid_idx/],
    ] as const) {
      let found: unknown;
      const queries = await t.queries.during(async () => {
        found = await lookup();
      });
      expect(found).toMatchObject({ jti: expect.any(String) });
      expect(queries).toHaveLength(1);
      const [query] = queries;
      if (!query) throw new Error('no statement');
      expect(await explain(t.ctx.db, dialect, query)).toMatch(index);
    }
  });

  it('refuses a payload moved to another row', async () => {
    const [a, b] = (await rows(t.ctx.db)).filter((row) => row.model === 'AccessToken');
    if (!a || !b) throw new Error('two access tokens expected');
    await t.ctx.db
      .updateTable('oidc_store')
      .set({ payload: b.payload })
      .where('id', '=', a.id)
      .execute();
    try {
      const { jti } = plainPayload(b);
      // Sealed for row b: under row a's key it does not open.
      await expect(findArtefact(t.ctx.db, plainPayload(a).jti, 'AccessToken')).rejects.toThrow(
        DataKeyError,
      );
      expect((await findArtefact(t.ctx.db, jti, 'AccessToken'))?.payload).toContain(jti);
    } finally {
      await t.ctx.db
        .updateTable('oidc_store')
        .set({ payload: a.payload })
        .where('id', '=', a.id)
        .execute();
    }
  });

  it('finds an artefact by its user code, stored only as a keyed hash', async () => {
    const userCode = 'WDJB-MJHT';
    await upsertArtefact(t.ctx.db, 'device-code-secret', 'DeviceCode', {
      payload: JSON.stringify({ jti: 'device-code-secret', userCode }),
      grant_id: null,
      user_code: userCode,
      uid: null,
      account_id: null,
      expires_at: Date.now() + 60_000,
    });
    const row = await t.ctx.db
      .selectFrom('oidc_store')
      .selectAll()
      .where('model', '=', 'DeviceCode')
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(userCode);
    expect(JSON.stringify(row)).not.toContain('device-code-secret');
    expect((await findArtefactBy(t.ctx.db, 'DeviceCode', 'user_code', userCode))?.payload).toBe(
      JSON.stringify({ jti: 'device-code-secret', userCode }),
    );
    expect(await findArtefactBy(t.ctx.db, 'DeviceCode', 'user_code', 'WDJB-MJHX')).toBeUndefined();
    await t.ctx.db.deleteFrom('oidc_store').where('model', '=', 'DeviceCode').execute();
  });

  it('moves the clear rows of an upgraded installation at start: refresh tokens, access tokens and sessions issued before keep working', async () => {
    const { tokens } = await codeFlow();
    const refreshToken = tokens.refresh_token ?? '';
    // Every row as the portal stored it before sealing: under `Model:<token>`, payload in clear.
    for (const row of await rows(t.ctx.db)) {
      const payload = plainPayload(row);
      await t.ctx.db
        .updateTable('oidc_store')
        .set({ id: `${row.model}:${payload.jti}`, payload: JSON.stringify(payload) })
        .where('id', '=', row.id)
        .execute();
    }
    const clear = await rows(t.ctx.db);
    expect(JSON.stringify(clear)).toContain(refreshToken);
    expect(clear.every((row) => !isSealed(row.payload))).toBe(true);

    // The next start (the upgraded node) moves them.
    const restarted = await buildApp(testConfig({ PUBLIC_URL: t.base }), {
      database: t.reopenDatabase(),
      clock: t.clock,
      logger: false,
    });
    await restarted.app.close();
    const moved = await rows(t.ctx.db);
    expect(moved.map((row) => row.model).sort()).toEqual(clear.map((row) => row.model).sort());
    for (const row of moved) {
      expect(row.id).toMatch(new RegExp(`^${row.model}:[\\w-]{43}$`));
      expect(row.payload).toMatch(/^v1\.t1\./);
    }
    expect(JSON.stringify(moved)).not.toContain(refreshToken);
    expect(JSON.stringify(moved)).not.toContain(tokens.access_token);

    // The tokens and the provider session issued before the upgrade still work.
    expect((await userinfo(tokens.access_token)).status).toBe(200);
    const refreshed = await client.refreshTokenGrant(rp, refreshToken);
    expect((await userinfo(refreshed.access_token)).status).toBe(200);
    const { tokens: next } = await codeFlow();
    expect(next.claims()?.sub).toBe(userId);
  });

  it('are counted by data:rotate-key --check and re-sealed by it; the tokens still work', async () => {
    const { tokens } = await codeFlow();
    const count = (await rows(t.ctx.db)).length;
    // Every node restarted with B first and A still configured (this process's keys: both apps').
    const rotated = await buildApp(
      testConfig({
        PUBLIC_URL: t.base,
        DATA_ENCRYPTION_KEY: `${KEY_B},${TEST_DATA_KEYS.encryption}`,
      }),
      { database: t.reopenDatabase(), clock: t.clock, logger: false },
    );
    try {
      const check = await checkDataKeyRotation(rotated.ctx);
      // The user's sealed person fields (none here), the two secret settings, and the artefacts.
      expect(check.byKey.t1).toBeGreaterThanOrEqual(count + 2);
      const rotation = await rotateDataKey(rotated.ctx, { batchSize: 2 });
      expect(rotation.remaining).toBe(0);
      expect(rotation.batches).toBeGreaterThan(1);
      for (const row of await rows(t.ctx.db)) expect(row.payload).toMatch(/^v1\.t2\./);
      expect(Object.keys(await keyIdsInUse(t.ctx.db))).toEqual(['t2']);
      expect((await userinfo(tokens.access_token)).status).toBe(200);
      const refreshed = await client.refreshTokenGrant(rp, tokens.refresh_token ?? '');
      expect((await userinfo(refreshed.access_token)).status).toBe(200);
    } finally {
      await rotated.app.close();
    }
  });
});
