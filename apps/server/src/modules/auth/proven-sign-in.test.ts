import { sql } from 'kysely';
import type { Db, Dialect } from '../../db/connection.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/helpers.js';
import { appKey } from '../../test/app-key.js';
import { createTestApp, createUser, DIALECTS, signIn, TestClient } from '../../test/helpers.js';
import { assertion, softKey, storePasskey } from '../../test/soft-passkey.js';
import { injectInsertFault, removeInsertFault, shapeOf, verbOf } from '../../test/statements.js';
import { endAllAccess } from '../access/service.js';
import type { MockProvider } from '../identity-providers/test-support.js';
import {
  callbackFromProvider,
  LINKED_RPPS,
  linkedProfessional,
  PORTAL,
  providerEnv,
  pscClaims,
  startMockProvider,
} from '../identity-providers/test-support.js';
import { linkIdentity } from '../identity-providers/service.js';
import { lockUser } from '../users/service.js';

// A sign-in proved by a key or a linked provider (auth/service.ts `signInProven`) opens its
// session like a password sign-in: in one transaction that first reads the account and holds it,
// so that a lock committed since the key was checked leaves no session (security.md: a lock ends
// every session), and a key revoked meanwhile signs nothing in. Driven through the app's native
// key, whose sign-in and a provider's share that one path.
type AppKey = Awaited<ReturnType<typeof appKey>>;

function setUp(dialect: Dialect) {
  const state: { t?: TestApp } = {};
  beforeAll(async () => {
    state.t = await createTestApp(dialect);
  });
  afterAll(() => state.t?.close());
  const app = (): TestApp => {
    if (!state.t) throw new Error('the app is not started');
    return state.t;
  };

  let accounts = 0;
  /** A new account with an app key enrolled, signed in once to enrol it. */
  async function enrolledAccount(): Promise<{ id: string; key: AppKey }> {
    const t = app();
    accounts++;
    const email = `prouve${accounts}@hygie.test`;
    const password = 'Clé-Prouvée-4187';
    const id = await createUser(t, {
      email,
      password,
      phone: `+3365800${String(accounts).padStart(4, '0')}`,
    });
    const client = new TestClient(t.app);
    expect((await signIn(t, client, email, password)).statusCode).toBe(200);
    const key = await appKey();
    const { challengeId, challenge } = (
      await client.post('/api/biometrics/native/enrol/challenge')
    ).json<{ challengeId: string; challenge: string }>();
    const enrolment = await client.post('/api/biometrics/native/enrol', {
      challengeId,
      keyId: key.keyId,
      publicKey: key.spki,
      signature: await key.sign(challenge),
      deviceName: 'Pixel 9',
    });
    expect(enrolment.json()).toEqual({ ok: true });
    // Only the sign-in under test leaves a session.
    await t.ctx.db.deleteFrom('sessions').where('user_id', '=', id).execute();
    return { id, key };
  }

  /** The challenge, signed: the sign-in request, ready to send. */
  async function signedChallenge(key: AppKey) {
    const client = new TestClient(app().app);
    const { challengeId, challenge } = (
      await client.post('/api/biometrics/native/login/challenge', { keyId: key.keyId })
    ).json<{ challengeId: string; challenge: string }>();
    const body = { challengeId, keyId: key.keyId, signature: await key.sign(challenge) };
    return () => client.post('/api/biometrics/native/login', body);
  }

  const sessionsOf = (userId: string) =>
    app().ctx.db.selectFrom('sessions').select('id').where('user_id', '=', userId).execute();

  return { app, enrolledAccount, signedChallenge, sessionsOf };
}

describe.each(DIALECTS)('a sign-in proved by a key, on %s', (dialect) => {
  const { app, enrolledAccount, signedChallenge, sessionsOf } = setUp(dialect);

  it('reads the account first in the one transaction that marks the key and opens the session', async () => {
    const t = app();
    const { id, key } = await enrolledAccount();
    const send = await signedChallenge(key);
    let status = 0;
    const queries = await t.queries.during(async () => {
      status = (await send()).statusCode;
    });
    expect(status).toBe(200);
    const { outside, transactions } = shapeOf(queries);
    // Before it: the challenge taken (spent once), the key and the settings read.
    expect(outside.filter((verb) => /^(insert|update|delete) /.test(verb))).toEqual([
      'update biometric_challenges',
    ]);
    const signInTransaction = transactions.find((verbs) => verbs.includes('insert sessions'));
    expect(signInTransaction?.slice(0, 3)).toEqual([
      'select users', // the account, held until the session is written
      'update credentials', // the key's use, only while it is not revoked
      'insert sessions',
    ]);
    expect(signInTransaction).toEqual(
      expect.arrayContaining(['insert audit_events', 'update sessions']),
    );
    const accountRead = queries.find(
      (query) => verbOf(query) === 'select users' && query.parameters.includes(id),
    );
    if (dialect === 'postgres') expect(accountRead?.sql).toMatch(/ for update( \/\* kept \*\/)?$/);
    expect(await sessionsOf(id)).toHaveLength(1);
  });

  it('a session that cannot be written: nothing of the sign-in is kept', async () => {
    const t = app();
    const { id, key } = await enrolledAccount();
    const keyUse = () =>
      t.ctx.db.selectFrom('credentials').select('last_used_at').where('user_id', '=', id).execute();
    const events = () =>
      t.ctx.db.selectFrom('audit_events').select('id').where('target_id', '=', id).execute();
    const before = { keyUse: await keyUse(), events: await events() };
    const send = await signedChallenge(key);
    await injectInsertFault(t, 'audit_events');
    try {
      expect((await send()).statusCode).toBeGreaterThanOrEqual(500);
    } finally {
      await removeInsertFault(t, 'audit_events');
    }
    expect(await sessionsOf(id)).toEqual([]);
    expect(await keyUse()).toEqual(before.keyUse);
    expect(await events()).toEqual(before.events);
  });

  it('an account locked before its key signs in: refused as locked, the refusal audited', async () => {
    const t = app();
    const { id, key } = await enrolledAccount();
    const send = await signedChallenge(key);
    await lockUser(t.ctx.db, id, t.clock.now());
    const res = await send();
    expect(res.statusCode).toBe(423);
    expect(res.json<{ code: string }>().code).toBe('account_locked');
    expect(await sessionsOf(id)).toEqual([]);
    const refusal = await t.ctx.db
      .selectFrom('audit_events')
      .select('details')
      .where('target_id', '=', id)
      .where('action', '=', 'login_failed')
      .executeTakeFirst();
    expect(refusal?.details).toMatch(/"method":"biometric"/);
  });
});

/** Whether a statement matching `pattern` comes to wait for a row lock (false after 3 s). */
async function waitingOnLock(t: TestApp, pattern: string): Promise<boolean> {
  for (let i = 0; i < 150; i++) {
    const { rows } = await sql<{ waiting: number }>`select count(*)::int as waiting
      from pg_stat_activity
      where wait_event_type = 'Lock' and query like ${pattern}`.execute(t.ctx.db);
    if ((rows[0]?.waiting ?? 0) > 0) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return false;
}

/**
 * Makes `change` in a transaction of its own and holds it uncommitted while `request` is sent,
 * until the request is seen waiting for a row lock on a statement like `pattern`; then commits it.
 */
async function sendDuringChange<T>(
  t: TestApp,
  change: (trx: Db) => Promise<unknown>,
  request: () => Promise<T>,
  pattern: string,
): Promise<{ answer: T; waited: boolean }> {
  let pending: Promise<T> | undefined;
  let waited = false;
  await t.ctx.db.transaction().execute(async (trx) => {
    await change(trx);
    pending = request();
    waited = await waitingOnLock(t, pattern);
  });
  if (!pending) throw new Error('the request was not sent');
  return { answer: await pending, waited };
}

/** The change that revokes every key of a user (as its owner or an admin would). */
function revokingKeysOf(t: TestApp, userId: string) {
  return (trx: Db) =>
    trx
      .updateTable('credentials')
      .set({ revoked_at: t.clock.now() })
      .where('user_id', '=', userId)
      .execute();
}

// Only PostgreSQL runs two transactions at once: there the sign-in meets a change still being
// committed, and must wait for it rather than act on the account or key as they were.
describe.skipIf(!DIALECTS.includes('postgres'))(
  'a key sign-in racing a change, on postgres',
  () => {
    const { app, enrolledAccount, signedChallenge, sessionsOf } = setUp('postgres');

    it('a lock being committed when the key signs in: it waits, then is refused as locked', async () => {
      const t = app();
      const { id, key } = await enrolledAccount();
      const send = await signedChallenge(key);
      const { answer: res, waited } = await sendDuringChange(
        t,
        async (trx) => {
          await lockUser(trx, id, t.clock.now());
          await endAllAccess(t.ctx, trx, id);
        },
        send,
        'select % from "users" %for update%',
      );
      expect(waited).toBe(true);
      expect(res.statusCode).toBe(423);
      expect(await sessionsOf(id)).toEqual([]);
    });

    it('a passkey being revoked as it raises the session: it waits, then raises nothing', async () => {
      const t = app();
      const email = 'marche-pied@hygie.test';
      const password = 'Marche-Pied-4187';
      const id = await createUser(t, { email, password, phone: '+33658001999' });
      const client = new TestClient(t.app);
      expect((await signIn(t, client, email, password)).statusCode).toBe(200);
      const key = softKey();
      await storePasskey(t, id, key);
      const { challengeId, options } = (
        await client.post('/api/me/assurance/passkey/options')
      ).json<{ challengeId: string; options: { challenge: string } }>();
      const response = assertion(key, options.challenge, t.ctx.config.publicUrl.origin);
      const { answer: res, waited } = await sendDuringChange(
        t,
        revokingKeysOf(t, id),
        () => client.post('/api/me/assurance/passkey', { challengeId, response }),
        'update "credentials" %',
      );
      expect(waited).toBe(true);
      expect(res.json<{ code: string }>().code).toBe('biometric_key_invalidated');
      expect((await client.get('/api/me/assurance')).json()).toMatchObject({ level: 'low' });
    });

    it('a key being revoked when it signs in: it waits, then signs nothing in', async () => {
      const t = app();
      const { id, key } = await enrolledAccount();
      const send = await signedChallenge(key);
      const { answer: res, waited } = await sendDuringChange(
        t,
        revokingKeysOf(t, id),
        send,
        'update "credentials" %',
      );
      expect(waited).toBe(true);
      expect(res.json<{ code: string }>().code).toBe('biometric_key_invalidated');
      expect(await sessionsOf(id)).toEqual([]);
    });
  },
);

describe.skipIf(!DIALECTS.includes('postgres'))(
  "a provider sign-in racing its link's removal, on postgres",
  () => {
    let t: TestApp;
    let psc: MockProvider;
    let userId: string;
    beforeAll(async () => {
      psc = await startMockProvider('psc', `${PORTAL}/api/idp/psc/callback`);
      t = await createTestApp('postgres', { env: providerEnv('PSC', psc) });
      userId = await linkedProfessional(t, psc, {
        email: 'lien.course@hygie.test',
        password: 'Lien-Course-4187',
        phone: '+33658009999',
        subject: 'f:psc-course',
      });
    });
    afterAll(async () => {
      await t.close();
      await psc.close();
    });

    it('a link being removed when the provider sends the browser back: not linked, and no session', async () => {
      psc.nextLogin = { subject: 'f:psc-course', acr: 'eidas1' };
      const client = new TestClient(t.app);
      const callback = await callbackFromProvider(client, 'psc');
      const { answer: res, waited } = await sendDuringChange(
        t,
        (trx) => trx.deleteFrom('identity_links').where('subject', '=', 'f:psc-course').execute(),
        () => client.get(callback),
        'update "identity_links" %',
      );
      expect(waited).toBe(true);
      expect(res.statusCode).toBe(303);
      expect(String(res.headers.location)).toContain('idp_error=not_linked');
      const sessions = await t.ctx.db
        .selectFrom('sessions')
        .select('id')
        .where('user_id', '=', userId)
        .execute();
      expect(sessions).toEqual([]);
    });

    it('a link being removed as the provider raises a session (step-up): not linked, the session as it was', async () => {
      // Its own link, whatever the test above left.
      await t.ctx.db.deleteFrom('identity_links').where('user_id', '=', userId).execute();
      psc.accounts.set('f:psc-montee', pscClaims(LINKED_RPPS));
      await linkIdentity(t.ctx, 'psc', 'f:psc-montee', userId);
      const client = new TestClient(t.app);
      expect(
        (await signIn(t, client, 'lien.course@hygie.test', 'Lien-Course-4187')).statusCode,
      ).toBe(200);
      psc.nextLogin = { subject: 'f:psc-montee', acr: 'eidas1' };
      const callback = await callbackFromProvider(
        client,
        'psc',
        '?intent=step_up&level=substantial',
      );
      const { answer: res, waited } = await sendDuringChange(
        t,
        (trx) => trx.deleteFrom('identity_links').where('subject', '=', 'f:psc-montee').execute(),
        () => client.get(callback),
        'update "identity_links" %',
      );
      expect(waited).toBe(true);
      expect(res.statusCode).toBe(303);
      expect(String(res.headers.location)).toContain('idp_error=not_linked');
      expect((await client.get('/api/me/assurance')).json()).toMatchObject({ level: 'low' });
    });
  },
);
