import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/helpers.js';
import { createTestApp, TEXT_RANGE_TARGETS } from '../../test/helpers.js';
import { Throttle } from './service.js';

// An admin's unlock and a new password clear the account's sign-in counters, every client's: the
// per-client ones as one range of the key's index (throttle/repository.ts), on databases whose
// collation orders text otherwise than byte by byte too (migration 0026).

const OWNER = '0c4f2a9e-7d1b-4e38-9a65-3b2f8d1c7e40';
const OTHER = '0c4f2a9e-7d1b-4e38-9a65-3b2f8d1c7e41';

const COUNTERS = {
  cleared: [
    `login:user:${OWNER}`,
    `login-day:user:${OWNER}`,
    `login:user:${OWNER}:ip:5d41402abc4b2a76b9719d91`,
    `login:user:${OWNER}:ip:none`,
    `login:user:${OWNER}:device:Zq3-x_9`,
  ],
  kept: [
    // Since when a client is the owner's: it stays the owner's.
    `known:user:${OWNER}:ip:5d41402abc4b2a76b9719d91`,
    `current-password:user:${OWNER}`,
    `login:user:${OTHER}`,
    `login:user:${OTHER}:ip:5d41402abc4b2a76b9719d91`,
    `login-day:user:${OTHER}`,
    'ip:203.0.113.9',
  ],
};

describe.each(TEXT_RANGE_TARGETS)('an account’s sign-in counters cleared on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(
      target.dialect,
      target.collation ? { collation: target.collation } : {},
    );
  });
  afterAll(() => t.close());

  it('clears the account’s counters and every client’s, and nothing of another account', async () => {
    const now = t.clock.now();
    await t.ctx.db
      .insertInto('throttles')
      .values(
        [...COUNTERS.cleared, ...COUNTERS.kept].map((key) => ({
          key,
          failures: 3,
          window_start: now,
          blocked_until: now + 60_000,
        })),
      )
      .execute();
    await new Throttle(t.ctx.db, t.clock).resetAccount(OWNER);
    const rows = await t.ctx.db.selectFrom('throttles').select('key').execute();
    expect(rows.map((r) => r.key).sort()).toEqual([...COUNTERS.kept].sort());
  });
});
