import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { URI, type TOTP } from 'otpauth';
import type { TestApp } from '../../test/helpers.js';
import {
  createTestApp,
  createUser,
  DIALECTS,
  messagesTo,
  signIn,
  TestClient,
} from '../../test/helpers.js';
import { deleteUser } from '../users/service.js';
import { recoveryCodeHash } from './service.js';

// Recovery codes (issue #20, item 2): 10 single-use codes of 60 bits, made with the first
// authenticator app and on demand behind the step-up (a new set replaces the old), stored hashed,
// listed as a second factor while some are left, each accepted once — even when 20 submissions of
// one code arrive together — and their use told to the owner with how many remain.

const FORMAT = /^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/;

describe.each(DIALECTS)('recovery codes on %s', (dialect) => {
  let t: TestApp;
  let seq = 0;

  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  async function person() {
    seq += 1;
    const email = `recovery-${seq}@hygie.test`;
    const password = `Recovery-Passw0rd-${seq}`;
    const id = await createUser(t, { email, password, phone: `+336573000${10 + seq}` });
    const client = new TestClient(t.app);
    expect((await signIn(t, client, email, password)).statusCode).toBe(200);
    return { id, email, password, client };
  }

  /** A person with codes made on demand. */
  async function withCodes() {
    const me = await person();
    const res = await me.client.post('/api/me/recovery-codes', { currentPassword: me.password });
    expect(res.statusCode).toBe(200);
    return { ...me, codes: res.json<{ codes: string[] }>().codes };
  }

  /** A fresh client at the second-factor stage of `me`. */
  async function halfSignedIn(me: { email: string; password: string }) {
    const client = new TestClient(t.app);
    const res = await client.login(me.email, me.password);
    expect(res.statusCode).toBe(401);
    return { client, data: res.json<{ code: string; data: { two_factor_providers: string[] } }>() };
  }

  it('makes 10 different codes of 60 random bits, shown once and stored as hashes only', async () => {
    const me = await withCodes();
    expect(me.codes).toHaveLength(10);
    expect(new Set(me.codes).size).toBe(10);
    for (const code of me.codes) expect(code).toMatch(FORMAT);
    // 12 characters of a 32-letter alphabet: 60 bits each. Over 10 sets, every letter shows up.
    const letters = new Set(me.codes.join('').replace(/-/g, ''));
    for (let i = 0; i < 9; i++) {
      const more = await me.client.post('/api/me/recovery-codes', {});
      for (const c of more.json<{ codes: string[] }>().codes) {
        for (const l of c.replace(/-/g, '')) letters.add(l);
      }
    }
    expect(letters.size).toBe(32);

    const latest = await me.client.post('/api/me/recovery-codes', {});
    const codes = latest.json<{ codes: string[] }>().codes;
    const rows = await t.ctx.db
      .selectFrom('recovery_codes')
      .selectAll()
      .where('user_id', '=', me.id)
      .execute();
    expect(rows).toHaveLength(10);
    const stored = JSON.stringify(rows);
    for (const code of codes) {
      expect(stored).not.toContain(code);
      expect(stored).not.toContain(code.replace(/-/g, ''));
    }
    expect(rows.map((r) => r.code_hash).sort()).toEqual(
      codes.map((c) => recoveryCodeHash(me.id, c)).sort(),
    );
    expect((await me.client.get('/api/me/recovery-codes')).json()).toEqual({
      remaining: 10,
      createdAt: t.clock.now(),
    });
    expect(JSON.stringify((await me.client.get('/api/me/recovery-codes')).json())).not.toContain(
      codes[0],
    );
  });

  it('asks for the step-up, and a new set replaces the old one', async () => {
    const me = await person();
    const wrong = await me.client.post('/api/me/recovery-codes', {
      currentPassword: 'Not-the-passw0rd',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: 'wrong_current_password' });
    t.clock.advance(6 * 60_000);
    const stale = await me.client.post('/api/me/recovery-codes', {});
    expect(stale.statusCode).toBe(403);
    expect(stale.json()).toMatchObject({ code: 'reauthentication_required' });
    expect((await me.client.get('/api/me/recovery-codes')).json()).toEqual({
      remaining: 0,
      createdAt: null,
    });

    const first = await me.client.post('/api/me/recovery-codes', { currentPassword: me.password });
    const old = first.json<{ codes: string[] }>().codes;
    const second = await me.client.post('/api/me/recovery-codes', {});
    expect(second.statusCode).toBe(200);
    expect((await messagesTo(t, me.email))[0]?.template).toBe('recovery_codes_generated');
    t.clock.advance(13 * 60_000);
    const { client } = await halfSignedIn(me);
    const refused = await client.post('/api/mfa/verify', {
      provider: 'recovery_code',
      code: old[0],
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'wrong_code' });
    const actions = await t.ctx.db
      .selectFrom('audit_events')
      .select('action')
      .where('target_id', '=', me.id)
      .where('action', '=', 'recovery_codes_generated')
      .execute();
    expect(actions).toHaveLength(2);
  });

  it('signs in with one: listed last, typed in any case with spaces, amr rec, told how many remain', async () => {
    const me = await withCodes();
    t.clock.advance(13 * 60_000);
    const { client, data } = await halfSignedIn(me);
    expect(data.data.two_factor_providers).toEqual(['email', 'sms', 'recovery_code']);
    const code = me.codes[3] ?? '';
    const typed = ` ${code.toLowerCase().replace(/-/g, ' ')} `;
    const res = await client.post('/api/mfa/verify', { provider: 'recovery_code', code: typed });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: me.id, recoveryCodesLeft: 9 });
    const session = await t.ctx.db
      .selectFrom('sessions')
      .select('amr')
      .where('user_id', '=', me.id)
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    expect(session.amr?.split(' ')).toEqual(['pwd', 'rec']);
    const notice = (await messagesTo(t, me.email)).find((m) => m.template === 'recovery_code_used');
    expect(notice?.params).toMatchObject({ remaining: '9' });
    expect(notice?.language).toBe('fr');
    expect((await client.get('/api/me/recovery-codes')).json()).toMatchObject({ remaining: 9 });

    // The same code again: refused, said used.
    const again = await halfSignedIn(me);
    const replay = await again.client.post('/api/mfa/verify', { provider: 'recovery_code', code });
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toMatchObject({ code: 'recovery_code_already_used' });
    expect(replay.json<{ message: string }>().message).not.toBe('');
    // Not a code's shape: a validation error, no 500.
    const shape = await again.client.post('/api/mfa/verify', {
      provider: 'recovery_code',
      code: '123456',
    });
    expect(shape.statusCode).toBe(400);
    expect(shape.json()).toMatchObject({ code: 'validation_error' });
    const audit = await t.ctx.db
      .selectFrom('audit_events')
      .select(['action', 'details'])
      .where('target_id', '=', me.id)
      .where('action', 'in', ['recovery_code_used', 'second_factor_failed'])
      .execute();
    expect(audit.map((a) => a.action).sort()).toEqual([
      'recovery_code_used',
      'second_factor_failed',
    ]);
  });

  it('accepts one code once among 20 parallel submissions', async () => {
    const me = await withCodes();
    t.clock.advance(13 * 60_000);
    const clients: TestClient[] = [];
    for (let i = 0; i < 20; i++) clients.push((await halfSignedIn(me)).client);
    const code = me.codes[0] ?? '';
    const answers = await Promise.all(
      clients.map((c) => c.post('/api/mfa/verify', { provider: 'recovery_code', code })),
    );
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 400)).toHaveLength(19);
    for (const a of answers.filter((r) => r.statusCode === 400)) {
      expect(a.json()).toMatchObject({ code: 'recovery_code_already_used' });
    }
    expect((await me.client.get('/api/me/recovery-codes')).json()).toMatchObject({ remaining: 9 });
    const used = await t.ctx.db
      .selectFrom('recovery_codes')
      .select('used_at')
      .where('user_id', '=', me.id)
      .where('used_at', 'is not', null)
      .execute();
    expect(used).toHaveLength(1);
    const notices = (await messagesTo(t, me.email)).filter(
      (m) => m.template === 'recovery_code_used',
    );
    expect(notices).toHaveLength(1);
  });

  it('slows wrong codes down on the authenticator app’s throttle: 429 after 5', async () => {
    const me = await withCodes();
    t.clock.advance(13 * 60_000);
    const { client } = await halfSignedIn(me);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await client.post('/api/mfa/verify', {
        provider: 'recovery_code',
        code: 'AAAA-BBBB-CCCC',
      });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([400, 400, 400, 400, 429, 429]);
    const blocked = await client.post('/api/mfa/verify', {
      provider: 'recovery_code',
      code: me.codes[1],
    });
    expect(blocked.statusCode).toBe(429);
    t.clock.advance(61_000);
    const ok = await client.post('/api/mfa/verify', {
      provider: 'recovery_code',
      code: me.codes[1],
    });
    expect(ok.statusCode).toBe(200);
  });

  it('is no longer listed once the last one is used; the owner is told to make new ones', async () => {
    const me = await withCodes();
    for (const [i, code] of me.codes.entries()) {
      t.clock.advance(13 * 60_000);
      const { client, data } = await halfSignedIn(me);
      expect(data.data.two_factor_providers).toContain('recovery_code');
      const res = await client.post('/api/mfa/verify', { provider: 'recovery_code', code });
      expect(res.json()).toMatchObject({ recoveryCodesLeft: 9 - i });
    }
    const last = (await messagesTo(t, me.email)).find((m) => m.template === 'recovery_code_used');
    expect(last?.params).toMatchObject({ remaining: '0' });
    t.clock.advance(13 * 60_000);
    const { client, data } = await halfSignedIn(me);
    expect(data.data.two_factor_providers).toEqual(['email', 'sms']);
    expect((await client.get('/api/mfa')).json()).toMatchObject({
      two_factor_providers: ['email', 'sms'],
    });
    const res = await client.post('/api/mfa/verify', {
      provider: 'recovery_code',
      code: me.codes[0],
    });
    expect(res.json()).toMatchObject({ code: 'recovery_code_already_used' });
  });

  it('comes with the first authenticator app, not with a later one while codes are left', async () => {
    const me = await person();
    const enrol = await me.client.post('/api/me/totp', { currentPassword: me.password });
    const parsed = URI.parse(enrol.json<{ otpauthUri: string }>().otpauthUri);
    if (!('period' in parsed)) throw new Error('not a TOTP URI');
    const app: TOTP = parsed;
    const confirmed = await me.client.post('/api/me/totp/confirm', {
      code: app.generate({ timestamp: t.clock.now() }),
    });
    expect(confirmed.statusCode).toBe(200);
    const { recoveryCodes } = confirmed.json<{ recoveryCodes?: string[] }>();
    expect(recoveryCodes).toHaveLength(10);
    for (const code of recoveryCodes ?? []) expect(code).toMatch(FORMAT);
    // One notice: the app's (the first codes come with it).
    expect((await messagesTo(t, me.email)).map((m) => m.template)).not.toContain(
      'recovery_codes_generated',
    );
    t.clock.advance(13 * 60_000);
    expect((await halfSignedIn(me)).data.data.two_factor_providers).toEqual([
      'totp',
      'email',
      'sms',
      'recovery_code',
    ]);

    // Removed and enrolled again: the codes left stay, none new.
    const removed = await me.client.request({
      method: 'DELETE',
      url: '/api/me/totp',
      payload: { currentPassword: me.password },
    });
    expect(removed.statusCode).toBe(200);
    const again = await me.client.post('/api/me/totp', {});
    const parsedAgain = URI.parse(again.json<{ otpauthUri: string }>().otpauthUri);
    if (!('period' in parsedAgain)) throw new Error('not a TOTP URI');
    const second = await me.client.post('/api/me/totp/confirm', {
      code: parsedAgain.generate({ timestamp: t.clock.now() }),
    });
    expect(second.statusCode).toBe(200);
    expect(second.json<{ recoveryCodes?: string[] }>().recoveryCodes).toBeUndefined();
  });

  it('serves as the step-up, says how many remain in the data export, and goes with the account', async () => {
    const me = await withCodes();
    t.clock.advance(6 * 60_000);
    expect((await me.client.post('/api/me/recovery-codes', {})).statusCode).toBe(403);
    const step = await me.client.post('/api/session/second-factor/verify', {
      provider: 'recovery_code',
      code: me.codes[5],
    });
    expect(step.statusCode).toBe(200);
    const exported = await me.client.get('/api/me/export');
    expect(exported.statusCode).toBe(200);
    expect(exported.json()).toMatchObject({ account: { recoveryCodesRemaining: 9 } });
    for (const code of me.codes) expect(exported.body).not.toContain(code);

    await deleteUser(t.ctx.db, me.id);
    const rows = await t.ctx.db
      .selectFrom('recovery_codes')
      .select('user_id')
      .where('user_id', '=', me.id)
      .execute();
    expect(rows).toEqual([]);
  });
});
