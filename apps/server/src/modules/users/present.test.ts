import { describe, expect, it } from 'vitest';
import { isoTime, presentUser } from './present.js';

const row = Object.freeze({
  id: 'u1',
  email: 'ada@hygie.test',
  email_verified_at: 1,
  phone: null,
  phone_verified_at: null,
  first_name: 'Ada',
  last_name: 'Lovelace',
  profile: 'patient',
  status: 'active',
  roles: '["admin"]',
  language: 'en',
});

describe('presentUser', () => {
  it('writes every field of the account and the session expiries, from a kept presentation too', () => {
    const expiries = { idleExpiresAt: Date.UTC(2026, 10, 28, 12), absoluteExpiresAt: 2e12 };
    const expected = {
      type: 'person',
      id: 'u1',
      email: 'ada@hygie.test',
      emailVerified: true,
      phone: null,
      phoneVerified: false,
      firstName: 'Ada',
      lastName: 'Lovelace',
      profile: 'patient',
      status: 'active',
      roles: ['admin'],
      language: 'en',
      session: {
        expiresAt: '2026-11-28T12:00:00.000Z',
        absoluteExpiresAt: new Date(2e12).toISOString(),
      },
    };
    expect(presentUser(row, expiries)).toStrictEqual(expected);
    // The second time from the frozen row's kept presentation: the same answer.
    expect(presentUser(row, expiries)).toStrictEqual(expected);
    // The session expires at the earlier of its two expiries.
    expect(
      presentUser(row, { idleExpiresAt: 3e12, absoluteExpiresAt: 2e12 }).session.expiresAt,
    ).toBe(new Date(2e12).toISOString());
  });
});

describe('isoTime', () => {
  it('is toISOString for any instant, kept or not, past the bound of those it keeps', () => {
    const start = Date.UTC(2026, 0, 1);
    for (let i = 0; i < 10_000; i += 1) {
      const ms = start + i * 61_003;
      expect(isoTime(ms)).toBe(new Date(ms).toISOString());
    }
    // Again, now that some are kept and others were let go.
    for (const ms of [start, start + 61_003 * 9_999, 0, -1]) {
      expect(isoTime(ms)).toBe(new Date(ms).toISOString());
    }
    expect(() => isoTime(Number.NaN)).toThrow(RangeError);
  });
});
