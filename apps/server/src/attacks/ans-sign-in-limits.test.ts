import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TestApp } from '../test/helpers.js';
import { createTestApp, createUser, DIALECTS, signIn, TestClient } from '../test/helpers.js';

// The ANS référentiel d'identification électronique's local sign-in rules (issue #20, item 5):
// after 5 failures at least one minute of delay, at most 25 failures in 24 hours — counted on the
// account across the clients that are not the owner's, never holding the owner's trusted browser.
const OWNER = { email: 'titulaire@example.fr', password: 'Kerguelen-Orque-1987' };
const WRONG = 'Devinette-1';
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

describe.each(DIALECTS)('ANS sign-in limits on %s', (dialect) => {
  let t: TestApp;
  let ownerId: string;
  beforeEach(async () => {
    t = await createTestApp(dialect);
    ownerId = await createUser(t, { ...OWNER, phone: '+33622222222' });
  });
  afterEach(() => t.close());

  /** A sign-in from a fresh client at `ip` (a botnet uses a new address each time). */
  const loginFrom = (ip: string, password: string, client = new TestClient(t.app)) =>
    client.request({
      method: 'POST',
      url: '/api/login',
      payload: { username: OWNER.email, password },
      remoteAddress: ip,
    });

  const retryAfter = (res: { json: <T>() => T }) =>
    res.json<{ data: { retryAfterSeconds: number } }>().data.retryAfterSeconds;

  /** The account-wide count so far, seeded as a failing day would have left it. */
  const seedDay = (failures: number) =>
    t.ctx.db
      .insertInto('throttles')
      .values({
        key: `login-day:user:${ownerId}`,
        failures,
        window_start: t.clock.now(),
        blocked_until: null,
      })
      .onConflict((oc) => oc.column('key').doUpdateSet({ failures, blocked_until: null }))
      .execute();

  it('after 5 failures from 5 addresses, a sixth waits a full minute, then is checked', async () => {
    for (let i = 0; i < 5; i++) {
      expect((await loginFrom(`203.0.113.${i}`, WRONG)).json()).toMatchObject({
        code: 'bad_credentials',
      });
    }
    const held = await loginFrom('192.0.2.1', OWNER.password);
    expect(held.statusCode).toBe(429);
    expect(held.json()).toMatchObject({
      code: 'too_many_attempts',
      message: 'Trop de tentatives, veuillez réessayer plus tard.',
      data: { retryAfterSeconds: 60 },
    });
    expect(held.headers['retry-after']).toBe('60');
    t.clock.advance(59_000);
    expect((await loginFrom('192.0.2.1', OWNER.password)).statusCode).toBe(429);
    t.clock.advance(1_000);
    expect((await loginFrom('192.0.2.1', OWNER.password)).json()).toMatchObject({
      code: 'two_factor_authentication_required',
    });
  });

  it('at most 25 failures in 24 hours: the 26th attempt is refused until the window is over', async () => {
    const verify = vi.spyOn(t.ctx.passwords, 'verify');
    const answers = [];
    for (let i = 0; i < 30; i++) {
      answers.push((await loginFrom(`203.0.113.${i}`, WRONG)).statusCode);
      t.clock.advance(MINUTE);
    }
    expect(answers).toEqual([...Array<number>(25).fill(401), ...Array<number>(5).fill(429)]);
    expect(verify).toHaveBeenCalledTimes(25);
    // The window opened with the first failure, 30 minutes ago: the wait is what is left of it.
    const refused = await loginFrom('192.0.2.1', OWNER.password, new TestClient(t.app));
    expect(refused.statusCode).toBe(429);
    expect(retryAfter(refused)).toBe((DAY - 30 * MINUTE) / 1000);
    expect(refused.headers['retry-after']).toBe(String((DAY - 30 * MINUTE) / 1000));
    // English and Arabic say it too.
    const en = await new TestClient(t.app).request({
      method: 'POST',
      url: '/api/login',
      payload: { username: OWNER.email, password: OWNER.password },
      remoteAddress: '192.0.2.2',
      headers: { 'accept-language': 'en' },
    });
    expect(en.statusCode).toBe(429);
    expect(en.json()).toMatchObject({ message: 'Too many attempts, please try again later.' });
    t.clock.advance(DAY - 30 * MINUTE);
    expect((await loginFrom('192.0.2.1', OWNER.password)).json()).toMatchObject({
      code: 'two_factor_authentication_required',
    });
  });

  it('the owner’s trusted browser and usual clients are never held by the daily limit', async () => {
    const browser = new TestClient(t.app);
    expect(
      (await signIn(t, browser, OWNER.email, OWNER.password, { trustDevice: true })).statusCode,
    ).toBe(200);
    await browser.request({ method: 'GET', url: '/api/logout' });
    await seedDay(25);
    expect((await loginFrom('192.0.2.1', OWNER.password)).statusCode).toBe(429);
    expect((await loginFrom('192.0.2.99', OWNER.password, browser)).statusCode).toBe(200);
  });

  it('a right password from a new client gives its attempt back', async () => {
    await seedDay(24);
    expect((await loginFrom('192.0.2.1', OWNER.password)).json()).toMatchObject({
      code: 'two_factor_authentication_required',
    });
    // Still one failure left for the others, then none.
    expect((await loginFrom('203.0.113.1', WRONG)).statusCode).toBe(401);
    t.clock.advance(MINUTE);
    expect((await loginFrom('203.0.113.2', WRONG)).statusCode).toBe(429);
  });

  it('parallel wrong submissions from many addresses never pass 5 before the minute', async () => {
    const verify = vi.spyOn(t.ctx.passwords, 'verify');
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => loginFrom(`203.0.113.${i}`, WRONG)),
    );
    const codes = answers.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 401)).toHaveLength(5);
    expect(codes.filter((c) => c === 429)).toHaveLength(15);
    expect(verify).toHaveBeenCalledTimes(5);
  });

  it('parallel wrong submissions are never counted past 25 in a day', async () => {
    await seedDay(23);
    const verify = vi.spyOn(t.ctx.passwords, 'verify');
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => loginFrom(`203.0.113.${i}`, WRONG)),
    );
    const codes = answers.map((r) => r.statusCode);
    // The 24th gets checked and holds the next for a minute; nothing gets past the 25th.
    expect(codes.filter((c) => c === 401)).toHaveLength(1);
    expect(verify).toHaveBeenCalledTimes(1);
    t.clock.advance(MINUTE);
    const again = await Promise.all(
      Array.from({ length: 20 }, (_, i) => loginFrom(`198.51.100.${i}`, WRONG)),
    );
    expect(again.filter((r) => r.statusCode === 401)).toHaveLength(1);
    t.clock.advance(MINUTE);
    const closed = await Promise.all(
      Array.from({ length: 20 }, (_, i) => loginFrom(`192.0.2.${i}`, WRONG)),
    );
    expect(closed.every((r) => r.statusCode === 429)).toBe(true);
    expect(verify).toHaveBeenCalledTimes(2);
  });
});
