import type { Db } from '../../db/connection.js';
import type { Clock } from '../../lib/clock.js';
import { AppError } from '../../lib/app-error.js';

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

/**
 * Counters in the database, shared by every node. Increments are single upserts, so parallel
 * failures are all counted.
 */
export class Throttle {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** Throws 429 too_many_attempts while the key is blocked. */
  async check(key: string): Promise<void> {
    const row = await this.db
      .selectFrom('throttles')
      .select(['failures', 'blocked_until'])
      .where('key', '=', key)
      .executeTakeFirst();
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
    const row = await this.db
      .insertInto('throttles')
      .values({ key, failures: 1, window_start: now, blocked_until: null })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet((eb) => ({
          failures: eb
            .case()
            .when('throttles.window_start', '<', cutoff)
            .then(1)
            .else(eb('throttles.failures', '+', 1))
            .end(),
          window_start: eb
            .case()
            .when('throttles.window_start', '<', cutoff)
            .then(now)
            .else(eb.ref('throttles.window_start'))
            .end(),
        })),
      )
      .returning(['failures', 'window_start'])
      .executeTakeFirstOrThrow();
    const until = block(row.failures, row.window_start);
    if (until !== null) {
      await this.db
        .updateTable('throttles')
        .set({ blocked_until: until })
        .where('key', '=', key)
        .where((eb) => eb.or([eb('blocked_until', 'is', null), eb('blocked_until', '<', until)]))
        .execute();
    }
    return row.failures;
  }

  async reset(key: string): Promise<void> {
    await this.db.deleteFrom('throttles').where('key', '=', key).execute();
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
