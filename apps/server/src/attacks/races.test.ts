import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../test/helpers.js';
import {
  createTestApp,
  createUser,
  DIALECTS,
  lastCode,
  letEveryPasswordStepIn,
  messagesTo,
  TestClient,
} from '../test/helpers.js';

// Attacker suite (security issue, point 8): every check-and-count (cooldown, cap, throttle) was a
// read then a write, so parallel requests all passed the read: on PostgreSQL 10 parallel code
// sends gave 9 codes, 10 parallel forgot-password requests 2, and 10 senders beat the cap on one
// number. Each is now one statement or a lock held to the commit; these tests fire the requests
// together, on both databases (PostgreSQL through its pool of real connections).
const OWNER = { email: 'titulaire@example.fr', password: 'Kerguelen-Orque-1987' };
const NUMBER = '+33698765432';
const PARALLEL = 10;

function statuses(responses: readonly { statusCode: number }[]) {
  const counts = new Map<number, number>();
  for (const { statusCode } of responses) counts.set(statusCode, (counts.get(statusCode) ?? 0) + 1);
  return Object.fromEntries(counts);
}

describe.each(DIALECTS)('parallel requests on %s', (dialect) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp(dialect);
    await createUser(t, { ...OWNER, phone: NUMBER });
  });
  afterEach(() => t.close());

  const templatesTo = async (recipient: string, template: string) =>
    (await messagesTo(t, recipient)).filter((m) => m.template === template).length;

  it(`${PARALLEL} parallel second-factor sends queue one code`, async () => {
    const owner = new TestClient(t.app);
    await owner.login(OWNER.email, OWNER.password);
    const responses = await Promise.all(
      Array.from({ length: PARALLEL }, () => owner.post('/api/mfa/send', { provider: 'sms' })),
    );
    expect(statuses(responses)).toEqual({ 200: 1, 429: PARALLEL - 1 });
    expect(await templatesTo(NUMBER, 'mfa_code')).toBe(1);
  });

  it(`${PARALLEL} parallel forgot-password requests queue one code`, async () => {
    const responses = await Promise.all(
      Array.from({ length: PARALLEL }, () =>
        new TestClient(t.app).post('/api/password/forgot', {
          username: OWNER.email,
          channel: 'email',
        }),
      ),
    );
    expect(statuses(responses)).toEqual({ 200: 1, 429: PARALLEL - 1 });
    expect(await templatesTo(OWNER.email, 'password_reset_code')).toBe(1);
  });

  it(`${PARALLEL} accounts aiming at one number in parallel get five codes sent, no more`, async () => {
    const senders = await Promise.all(
      Array.from({ length: PARALLEL }, async (_, i) => {
        const email = `sender${i}@example.fr`;
        await createUser(t, { email, password: 'Sender-Passw0rd-77', phone: null });
        const sender = new TestClient(t.app);
        await sender.login(email, 'Sender-Passw0rd-77');
        await sender.post('/api/mfa/send', { provider: 'email' });
        await sender.post('/api/mfa/verify', {
          provider: 'email',
          code: await lastCode(t, email),
          trustDevice: false,
        });
        return sender;
      }),
    );
    const responses = await Promise.all(
      senders.map((sender) =>
        sender.post('/api/verification/mobile-phone/change', { phone: '06 98 76 54 32' }),
      ),
    );
    expect(statuses(responses)).toEqual({ 200: 5, 429: PARALLEL - 5 });
    expect(await templatesTo(NUMBER, 'verification_code')).toBe(5);
  });

  it('counts every one of 20 parallel wrong passwords', async () => {
    letEveryPasswordStepIn(t);
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        new TestClient(t.app).login(OWNER.email, `Wrong-Passw0rd-${i}`),
      ),
    );
    expect(responses.every((r) => [401, 429].includes(r.statusCode))).toBe(true);
    const user = await t.ctx.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', OWNER.email)
      .executeTakeFirstOrThrow();
    const counted = await t.ctx.db
      .selectFrom('throttles')
      .select('failures')
      .where('key', '=', `login:user:${user.id}`)
      .executeTakeFirst();
    // Every request that got a password checked was counted; the rest were refused before it.
    const checked = responses.filter((r) => r.statusCode === 401).length;
    expect(counted?.failures).toBe(checked);
  });
});
