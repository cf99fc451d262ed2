import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TestApp } from '../../test/helpers.js';
import { createTestApp, createUser, DIALECTS, TestClient } from '../../test/helpers.js';
import { normalizePassword } from '@hygie/domain';
import { endAllAccess } from '../access/service.js';
import { lockUser, updatePasswordHash } from '../users/service.js';

// security.md: a lock or a password reset ends every session. A sign-in reads the account, then
// spends tens of milliseconds on its hash: what happens to the account meanwhile must still hold
// when the session is written (auth/service.ts `accountAfterHash`).
describe.each(DIALECTS)('an account changed while its password is checked, on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());
  afterEach(() => {
    vi.restoreAllMocks();
  });

  let accounts = 0;
  async function newAccount(): Promise<{ id: string; email: string; password: string }> {
    accounts++;
    const email = `course${accounts}@hygie.test`;
    const password = 'Chassé-Croisé-4187';
    const id = await createUser(t, { email, password });
    return { id, email, password };
  }

  /** Holds every password check until `release`; `checking` settles once one has begun. */
  function holdPasswordChecks() {
    const verify = t.ctx.passwords.verify.bind(t.ctx.passwords);
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let begun = () => {};
    const checking = new Promise<void>((resolve) => {
      begun = resolve;
    });
    vi.spyOn(t.ctx.passwords, 'verify').mockImplementation(async (encoded, password) => {
      begun();
      await released;
      return verify(encoded, password);
    });
    return { checking, release };
  }

  /** Locks the account as the "not you?" link and an admin do: status, then every session ended. */
  const lock = (userId: string) =>
    t.ctx.db.transaction().execute(async (trx) => {
      await lockUser(trx, userId, t.clock.now());
      await endAllAccess(t.ctx, trx, userId);
    });

  const sessionsOf = async (userId: string) =>
    t.ctx.db.selectFrom('sessions').select('id').where('user_id', '=', userId).execute();

  /** A sign-in of `account` whose password check waits while `change` is made to the account. */
  async function signInAround(
    account: { email: string; password: string },
    change: () => Promise<unknown>,
  ) {
    const held = holdPasswordChecks();
    const answer = new TestClient(t.app).login(account.email, account.password);
    await held.checking;
    await change();
    held.release();
    return answer;
  }

  it('locked during the hash: refused as locked, and no session', async () => {
    const account = await newAccount();
    const res = await signInAround(account, () => lock(account.id));
    expect(res.statusCode).toBe(423);
    expect(res.json<{ code: string }>().code).toBe('account_locked');
    expect(await sessionsOf(account.id)).toHaveLength(0);
  });

  it('password reset during the hash: the old password opens no session', async () => {
    const account = await newAccount();
    const newHash = await t.ctx.passwords.hash(normalizePassword('Tout-Autre-Mot-9531'));
    const res = await signInAround(account, () =>
      t.ctx.db.transaction().execute(async (trx) => {
        await updatePasswordHash(trx, account.id, newHash, t.clock.now());
        await endAllAccess(t.ctx, trx, account.id);
      }),
    );
    expect(res.statusCode).toBe(401);
    expect(res.json<{ code: string }>().code).toBe('bad_credentials');
    expect(await sessionsOf(account.id)).toHaveLength(0);
  });

  it('a change that leaves the password and status alone does not stop the sign-in', async () => {
    const account = await newAccount();
    const res = await signInAround(account, () =>
      t.ctx.db
        .updateTable('users')
        .set({ first_name: 'Renommée' })
        .where('id', '=', account.id)
        .execute(),
    );
    // The next stage of the sign-in: a session was opened, once. What was first written from the
    // account read before the hash was undone, then written again from the account as it is.
    expect(res.json<{ code: string }>().code).toBe('two_factor_authentication_required');
    expect(await sessionsOf(account.id)).toHaveLength(1);
    const logins = await t.ctx.db
      .selectFrom('audit_events')
      .select('id')
      .where('action', '=', 'login')
      .where('target_id', '=', account.id)
      .execute();
    expect(logins).toHaveLength(1);
  });

  it('a lock racing the end of a sign-in never leaves a session (parallel, 12 rounds)', async () => {
    for (let round = 0; round < 12; round++) {
      const account = await newAccount();
      const held = holdPasswordChecks();
      const answer = new TestClient(t.app).login(account.email, account.password);
      await held.checking;
      held.release();
      // The lock starts as the sign-in resumes: either may reach the account first.
      const [res] = await Promise.all([answer, lock(account.id)]);
      expect([401, 423]).toContain(res.statusCode);
      expect(await sessionsOf(account.id)).toHaveLength(0);
      vi.restoreAllMocks();
    }
  });
});
