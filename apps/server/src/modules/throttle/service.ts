import type { Db } from '../../db/connection.js';
import type { Clock } from '../../lib/clock.js';
import { AppError } from '../../lib/app-error.js';
import { deleteThrottle, extendBlock, findThrottle, incrementFailures } from './repository.js';

// security.md "Throttling without denial of service".
export const ACCOUNT_FREE_FAILURES = 5;
export const ACCOUNT_FIRST_WAIT_MS = 60_000;
export const ACCOUNT_MAX_WAIT_MS = 15 * 60_000;
/** NIST 800-63B: never more than 100 consecutive failures; then only a reset or an admin clears it. */
export const ACCOUNT_MAX_FAILURES = 100;
export const IP_MAX_FAILURES = 100;
export const IP_WINDOW_MS = 10 * 60_000;

/** Wait imposed after `failures` consecutive failures: none up to 5, then 60 s doubling to 15 min. */
export function accountWaitMs(failures: number): number {
  if (failures < ACCOUNT_FREE_FAILURES) return 0;
  return Math.min(
    ACCOUNT_FIRST_WAIT_MS * 2 ** (failures - ACCOUNT_FREE_FAILURES),
    ACCOUNT_MAX_WAIT_MS,
  );
}

/** Counters in the database, shared by every node (throttle/repository holds the SQL). */
export class Throttle {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** Throws 429 too_many_attempts while the key is blocked. */
  async check(key: string): Promise<void> {
    const row = await findThrottle(this.db, key);
    if (!row) return;
    if (row.failures >= ACCOUNT_MAX_FAILURES && key.startsWith('login:')) {
      throw new AppError('too_many_attempts');
    }
    const wait = (row.blocked_until ?? 0) - this.clock.now();
    if (wait > 0) {
      const seconds = Math.ceil(wait / 1000);
      throw new AppError(
        'too_many_attempts',
        { retryAfterSeconds: seconds },
        { 'retry-after': String(seconds) },
      );
    }
  }

  /** Counts a failure; `windowMs` makes the count restart after that long (per-IP windows). */
  async fail(
    key: string,
    block: (failures: number, windowStart: number) => number | null,
    windowMs?: number,
  ) {
    const now = this.clock.now();
    const cutoff = windowMs === undefined ? Number.MIN_SAFE_INTEGER : now - windowMs;
    const row = await incrementFailures(this.db, key, now, cutoff);
    const until = block(row.failures, row.window_start);
    if (until !== null) {
      await extendBlock(this.db, key, until);
    }
    return row.failures;
  }

  async reset(key: string): Promise<void> {
    await deleteThrottle(this.db, key);
  }

  /** A failed sign-in for an account (or an unknown name: same treatment, no enumeration). */
  failLogin(subject: string) {
    return this.fail(`login:${subject}`, (failures) => {
      const wait = accountWaitMs(failures);
      return wait > 0 ? this.clock.now() + wait : null;
    });
  }

  /** A failed sign-in from an address: 100 per 10 minutes. */
  failIp(ip: string) {
    return this.fail(
      `ip:${ip}`,
      (failures, windowStart) => (failures >= IP_MAX_FAILURES ? windowStart + IP_WINDOW_MS : null),
      IP_WINDOW_MS,
    );
  }
}
