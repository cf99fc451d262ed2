import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isAppError } from '../../lib/app-error.js';
import type { TestApp } from '../../test/helpers.js';
import { createTestApp, createUser, DIALECTS } from '../../test/helpers.js';
import { newId } from '../../lib/ids.js';
import { insertCode, supersedeCodes } from './repository.js';
import { generateCode, issueCode, sendCode, verifyCode } from './service.js';

async function errorCode(p: Promise<unknown>): Promise<string | undefined> {
  try {
    await p;
    return undefined;
  } catch (err) {
    if (isAppError(err)) return err.code;
    throw err;
  }
}

describe.each(DIALECTS)('one-time codes on %s', (dialect) => {
  let t: TestApp;
  let userId: string;
  let other: string;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    userId = await createUser(t, { email: 'codes@hygie.test', password: 'Codes-Passw0rd' });
    other = await createUser(t, { email: 'other@hygie.test', password: 'Other-Passw0rd' });
  });
  afterAll(() => t.close());

  const issue = (
    uid = userId,
    purpose: Parameters<typeof issueCode>[3] = 'mfa_email',
    dest = 'codes@hygie.test',
  ) => issueCode(t.ctx, t.ctx.db, uid, purpose, dest).then((issued) => issued.code);

  it('makes 6-digit codes and stores only a keyed hash', async () => {
    t.clock.advance(2 * 60 * 60_000);
    expect(generateCode()).toMatch(/^\d{6}$/);
    const code = await issue();
    const rows = await t.ctx.db.selectFrom('one_time_codes').select('code_hash').execute();
    expect(rows.some((r) => r.code_hash.includes(code))).toBe(false);
    await verifyCode(t.ctx, userId, 'mfa_email', code);
  });

  it('a new code is never among those it supersedes, whichever of the two statements runs first', async () => {
    t.clock.advance(2 * 60 * 60_000);
    const now = t.clock.now();
    const row = (id: string) => ({
      id,
      user_id: other,
      purpose: 'mfa_email',
      destination: 'other@hygie.test',
      code_hash: `hash-${id}`,
      attempts: 0,
      created_at: now,
      expires_at: now + 600_000,
      consumed_at: null,
      superseded_at: null,
    });
    const [previous, issued] = [newId(), newId()];
    // The new code's insert answered before the supersede ran (out of a transaction they go on
    // two connections, issueCode).
    await insertCode(t.ctx.db, row(previous));
    await insertCode(t.ctx.db, row(issued));
    await supersedeCodes(t.ctx.db, other, 'mfa_email', now, issued);
    const rows = await t.ctx.db
      .selectFrom('one_time_codes')
      .select(['id', 'superseded_at'])
      .where('id', 'in', [previous, issued])
      .execute();
    await t.ctx.db.deleteFrom('one_time_codes').where('id', 'in', [previous, issued]).execute();
    expect(Object.fromEntries(rows.map((r) => [r.id, r.superseded_at]))).toEqual({
      [previous]: now,
      [issued]: null,
    });
  });

  it('is single use', async () => {
    t.clock.advance(2 * 60 * 60_000);
    const code = await issue();
    await verifyCode(t.ctx, userId, 'mfa_email', code);
    expect(await errorCode(verifyCode(t.ctx, userId, 'mfa_email', code))).toBe('code_invalid');
  });

  it('expires after 10 minutes', async () => {
    t.clock.advance(2 * 60 * 60_000);
    const code = await issue();
    t.clock.advance(10 * 60_000);
    expect(await errorCode(verifyCode(t.ctx, userId, 'mfa_email', code))).toBe('code_expired');
  });

  it('works only in the flow and for the user that issued it', async () => {
    t.clock.advance(2 * 60 * 60_000);
    const code = await issue();
    expect(await errorCode(verifyCode(t.ctx, userId, 'reset_email', code))).toBe('code_invalid');
    expect(await errorCode(verifyCode(t.ctx, other, 'mfa_email', code))).toBe('code_invalid');
    await verifyCode(t.ctx, userId, 'mfa_email', code);
  });

  it('counts wrong tries and invalidates the code at the fifth', async () => {
    t.clock.advance(2 * 60 * 60_000);
    const code = await issue();
    const wrong = code === '000000' ? '111111' : '000000';
    for (let remaining = 4; remaining >= 1; remaining--) {
      await expect(verifyCode(t.ctx, userId, 'mfa_email', wrong)).rejects.toMatchObject({
        code: 'wrong_code',
        data: { remainingAttempts: remaining },
      });
    }
    expect(await errorCode(verifyCode(t.ctx, userId, 'mfa_email', wrong))).toBe('too_many_trials');
    expect(await errorCode(verifyCode(t.ctx, userId, 'mfa_email', code))).toBe('too_many_trials');
  });

  it('refuses a resend before 60 s with the wait in seconds, then allows it', async () => {
    t.clock.advance(2 * 60 * 60_000);
    const first = await issue();
    t.clock.advance(20_000);
    await expect(issue()).rejects.toMatchObject({
      code: 'wait_before_retry',
      data: { retryAfterSeconds: 40 },
    });
    t.clock.advance(40_000);
    const second = await issue();
    // the new code replaces the old one: the old one is now just a wrong code
    if (first !== second) {
      expect(await errorCode(verifyCode(t.ctx, userId, 'mfa_email', first))).toBe('wrong_code');
    }
    await verifyCode(t.ctx, userId, 'mfa_email', second);
  });

  it('sends at most 5 codes per destination per hour', async () => {
    t.clock.advance(2 * 60 * 60_000);
    for (let i = 0; i < 5; i++) {
      await issue(userId, 'phone_verification', '+33612340000');
      t.clock.advance(61_000);
    }
    const refused = issue(userId, 'phone_verification', '+33612340000');
    await expect(refused).rejects.toMatchObject({ code: 'wait_before_retry' });
    t.clock.advance(60 * 60_000);
    await issue(userId, 'phone_verification', '+33612340000');
  });

  it('gives exactly one success to 20 concurrent verifications of one code', async () => {
    t.clock.advance(2 * 60 * 60_000);
    const code = await issue();
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () => verifyCode(t.ctx, userId, 'mfa_email', code)),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results) {
      if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'code_invalid' });
    }
  });

  it('sends a code and its message together; a send refused by the cooldown queues nothing', async () => {
    t.clock.advance(2 * 60 * 60_000);
    const message = {
      userId,
      purpose: 'mfa_sms' as const,
      channel: 'sms' as const,
      destination: '+33698765432',
      template: 'mfa_code' as const,
      language: 'fr' as const,
      brand: 'hygie' as const,
      params: (code: string) => ({ link: `https://hygie.test/?code=${code}` }),
    };
    const queued = () =>
      t.ctx.db
        .selectFrom('outbox')
        .select(['channel', 'template', 'params'])
        .where('recipient', '=', message.destination)
        .execute();
    expect(await sendCode(t.ctx, message)).toEqual({
      destination: expect.not.stringContaining('98765'),
      retryAfterSeconds: 60,
    });
    const [sent, ...more] = await queued();
    expect(more).toHaveLength(0);
    expect(sent).toMatchObject({ channel: 'sms', template: 'mfa_code' });
    const params = z
      .object({ code: z.string(), link: z.string() })
      .parse(JSON.parse(sent?.params ?? '{}'));
    expect(params.link).toBe(`https://hygie.test/?code=${params.code}`);
    await verifyCode(t.ctx, userId, 'mfa_sms', params.code);

    t.clock.advance(30_000);
    await expect(sendCode(t.ctx, message)).rejects.toMatchObject({ code: 'wait_before_retry' });
    expect(await queued()).toHaveLength(1);
  });
});
