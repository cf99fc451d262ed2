import { createHash } from 'node:crypto';
import type { Db } from '../../db/connection.js';
import type { Clock } from '../../lib/clock.js';
import { AppError } from '../../lib/app-error.js';
import {
  deleteThrottle,
  extendBlock,
  findThrottle,
  claimWindow,
  findWindowStart,
  incrementFailures,
} from './repository.js';

// security.md "Throttling without denial of service".
export const ACCOUNT_FREE_FAILURES = 5;
export const ACCOUNT_FIRST_WAIT_MS = 60_000;
export const ACCOUNT_MAX_WAIT_MS = 15 * 60_000;
/** NIST 800-63B: never more than 100 consecutive failures; then only a reset or an admin clears it. */
export const ACCOUNT_MAX_FAILURES = 100;
export const IP_MAX_FAILURES = 100;
export const IP_WINDOW_MS = 10 * 60_000;
export const IDENTIFIER_PROBES_PER_HOUR = 5;

/** Wait imposed after `failures` consecutive failures: none up to 5, then 60 s doubling to 15 min. */
export function accountWaitMs(failures: number): number {
  if (failures < ACCOUNT_FREE_FAILURES) return 0;
  return Math.min(
    ACCOUNT_FIRST_WAIT_MS * 2 ** (failures - ACCOUNT_FREE_FAILURES),
    ACCOUNT_MAX_WAIT_MS,
  );
}

/** The sign-in throttle subject of an account (unknown names are throttled by the name typed). */
export function accountSubject(userId: string): string {
  return `user:${userId}`;
}

/**
 * The throttle key of a name or address someone typed (known or not: the same key either way, so
 * its answers tell nothing), without keeping the name itself in the table.
 */
export function typedNameKey(scope: string, typed: string): string {
  return `${scope}:${createHash('sha256').update(typed.trim().toLowerCase()).digest('hex')}`;
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

  /**
   * A cooldown: throws 429 wait_before_retry while the last request under `key` is younger than
   * `cooldownMs`, otherwise records this one — in one statement, so of parallel requests exactly
   * one passes.
   */
  async cooldown(key: string, cooldownMs: number): Promise<void> {
    const now = this.clock.now();
    if (await claimWindow(this.db, key, now, now - cooldownMs)) return;
    const last = (await findWindowStart(this.db, key)) ?? now;
    const wait = Math.max(1, Math.ceil((last + cooldownMs - now) / 1000));
    throw new AppError(
      'wait_before_retry',
      { retryAfterSeconds: wait },
      { 'retry-after': String(wait) },
    );
  }

  /** Throws while sign-ins for this subject (`user:<id>` or the name typed) are blocked. */
  checkLogin(subject: string): Promise<void> {
    return this.check(`login:${subject}`);
  }

  /** A successful sign-in clears the subject's failures. */
  resetLogin(subject: string): Promise<void> {
    return this.reset(`login:${subject}`);
  }

  /** Clears an account's sign-in failures (unlock by an admin, a new password). */
  resetAccount(userId: string): Promise<void> {
    return this.resetLogin(accountSubject(userId));
  }

  /** A failed sign-in for an account (or an unknown name: same treatment, no enumeration). */
  failLogin(subject: string) {
    return this.fail(`login:${subject}`, (failures) => {
      const wait = accountWaitMs(failures);
      return wait > 0 ? this.clock.now() + wait : null;
    });
  }

  /**
   * A check of a signed-in user's current password (changing the e-mail, the phone or the
   * password): the sign-in's slowing rule, on its own count per account, so a stolen session
   * cannot guess the password at full speed (security.md). Throws 429 while blocked; counts a
   * failure; a right password clears the count.
   */
  async checkCurrentPassword(userId: string, verify: () => Promise<boolean>): Promise<boolean> {
    const key = `current-password:${accountSubject(userId)}`;
    await this.check(key);
    if (await verify()) {
      await this.reset(key);
      return true;
    }
    await this.fail(key, (failures) => {
      const wait = accountWaitMs(failures);
      return wait > 0 ? this.clock.now() + wait : null;
    });
    return false;
  }

  /**
   * A profile edit that gave an INS or professional identifier already another account's: 5 an
   * hour per account, then 429 until the hour is over (the answer tells the identifier is taken;
   * the owner is told each time).
   */
  checkIdentifierProbe(userId: string): Promise<void> {
    return this.check(`identifier-taken:${accountSubject(userId)}`);
  }

  failIdentifierProbe(userId: string) {
    return this.fail(
      `identifier-taken:${accountSubject(userId)}`,
      (failures, windowStart) =>
        failures >= IDENTIFIER_PROBES_PER_HOUR ? windowStart + 60 * 60_000 : null,
      60 * 60_000,
    );
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
