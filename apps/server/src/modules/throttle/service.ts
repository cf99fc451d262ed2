import { createHash } from 'node:crypto';
import type { Db } from '../../db/connection.js';
import { transaction, transactionCommitting } from '../../db/transaction.js';
import type { Clock } from '../../lib/clock.js';
import { AppError, retryLater } from '../../lib/app-error.js';
import {
  blockCurve,
  deleteThrottle,
  extendBlock,
  findThrottle,
  readLoginCounters,
  claimWindow,
  deleteThrottlesWithPrefix,
  findWindowStart,
  incrementFailures,
  releaseAttempt,
  reserveAttempt,
  reserveWindowedAttempt,
} from './repository.js';

// security.md "Throttling without denial of service".
export const ACCOUNT_FREE_FAILURES = 5;
export const ACCOUNT_FIRST_WAIT_MS = 60_000;
export const ACCOUNT_MAX_WAIT_MS = 15 * 60_000;
/**
 * NIST 800-63B §5.2.2: at most 100 failed guesses per account get a password checked in the
 * window; past it only the owner's own clients (trusted browser, a client that signed in before)
 * are still checked, until the window ends or a reset clears it.
 */
export const ACCOUNT_MAX_FAILURES = 100;
export const ACCOUNT_WINDOW_MS = 30 * 24 * 60 * 60_000;
/**
 * The account-wide limits, across the clients that are not the owner's (ANS référentiel
 * d'identification électronique, local password sign-in): after 5 failures at least one minute
 * between attempts, and at most 25 failures in 24 hours — the 25th closes the account to those
 * clients until its 24-hour window (opened by the first failure) is over. The owner's trusted
 * browser and the clients that signed in before are never held by them.
 */
export const ACCOUNT_GLOBAL_FREE_FAILURES = 5;
export const ACCOUNT_GLOBAL_WAIT_MS = 60_000;
export const ACCOUNT_DAY_MAX_FAILURES = 25;
export const ACCOUNT_DAY_MS = 24 * 60 * 60_000;
/** How long a client that signed in stays one of the owner's. */
export const KNOWN_CLIENT_MS = 30 * 24 * 60 * 60_000;
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

/** A client's own count's curve (accountWaitMs), laid out once for the statements using it. */
const CLIENT_CURVE = blockCurve(accountWaitMs);

/**
 * Who tries a sign-in, for the throttle: the trusted browser this account recognises, else the
 * client's address. `trusted` is the owner's own browser (its device cookie).
 */
export interface SignInClient {
  key: string;
  trusted: boolean;
}

export function signInClient(ip: string | null, trustedDeviceId: string | null): SignInClient {
  if (trustedDeviceId) return { key: `device:${trustedDeviceId}`, trusted: true };
  return {
    // 96 bits of the address's hash: the key fits its column beside a typed name's full hash.
    key: ip ? `ip:${createHash('sha256').update(ip).digest('hex').slice(0, 24)}` : 'ip:none',
    trusted: false,
  };
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

/** The counters of a sign-in by `client` for `subject`. */
function loginKeys(subject: string, client: SignInClient) {
  return {
    /** This client's own count (5 free attempts, then waits). */
    client: `login:${subject}:${client.key}`,
    /** Since when this client is one of the owner's (it signed in). */
    known: `known:${subject}:${client.key}`,
    /** The account's failures in 30 days (the NIST cap). */
    account: `login:${subject}`,
    /** The account-wide attempts of the clients that are not the owner's, in 24 hours. */
    day: `login-day:${subject}`,
  };
}

/** What beginLogin reserved: whether the attempt counts on the account-wide limits. */
export interface LoginAttempt {
  accountCounted: boolean;
  /**
   * Settled once the reservation is durable: rejected when it could not be committed (nothing of
   * it kept). The password may be checked meanwhile, its outcome used only once this resolves.
   */
  committed: Promise<void>;
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
    this.refuseUntil(row.blocked_until);
  }

  /** Throws 429 too_many_attempts, with the wait, if `until` is still ahead. */
  private refuseUntil(until: number | null | undefined): void {
    const wait = (until ?? 0) - this.clock.now();
    if (wait > 0) {
      const seconds = Math.ceil(wait / 1000);
      throw retryLater('too_many_attempts', seconds);
    }
  }

  /** Throws 429 too_many_attempts: the wait until `until`, at least a second. */
  private refuse(until: number | null | undefined): never {
    const seconds = Math.max(1, Math.ceil(((until ?? 0) - this.clock.now()) / 1000));
    throw retryLater('too_many_attempts', seconds);
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
    throw retryLater('wait_before_retry', wait);
  }

  /**
   * Before a password is checked for `subject` (`user:<id>` or the name typed) from `client` at
   * `ip`:
   * - nothing while the address is blocked (100 failures in 10 minutes, failIp);
   * - a client that is not the owner's (trusted browser, or one that signed in within 30 days)
   *   reserves an attempt on the account-wide count: after 5 failures one minute between
   *   attempts, at most 25 in 24 hours (then refused until the window is over); past 100
   *   failures in 30 days it gets no check at all (NIST);
   * - every client has its own count: 5 free attempts, then 60 s doubling to 15 min.
   * The counters are read in one statement (by primary key), which also tells whether the client
   * is one of the owner's and, on PostgreSQL, reserves that client's attempt (one round trip
   * before the hash; throttle/repository readLoginCounters). Both counts of any other client are
   * reserved before the check, in one transaction (a refusal of the second takes back the first),
   * so others' failures never slow the owner's own client and a parallel burst gets no more checks
   * than a sequence.
   * Throws 429 too_many_attempts (with the wait) instead of letting the password be checked.
   * Returns the attempt, to hand to succeedLogin or giveBack, as soon as its reservations are
   * decided: the rows they hold are locked until their commit (PostgreSQL) and a parallel attempt
   * waits for it, so the password may be checked while that commit is on its way; its outcome
   * must wait for `committed`.
   */
  async beginLogin(
    subject: string,
    client: SignInClient,
    ip: string | null,
  ): Promise<LoginAttempt> {
    const now = this.clock.now();
    const keys = loginKeys(subject, client);
    const counters = await readLoginCounters(this.db, {
      client: keys.client,
      known: keys.known,
      account: keys.account,
      ip: ip === null ? null : `ip:${ip}`,
      trusted: client.trusted,
      now,
      knownSince: now - KNOWN_CLIENT_MS,
      curve: CLIENT_CURVE,
    });
    const row = (key: string) => counters.rows.find((r) => r.key === key);
    if (ip !== null) this.refuseUntil(row(`ip:${ip}`)?.blocked_until);
    // This client's own block first: it is the longer wait, and the one its failures earned.
    this.refuseUntil(row(keys.client)?.blocked_until);
    if (counters.owner) {
      // On PostgreSQL the attempt was reserved by the same statement; on SQLite it is now.
      const reserved = counters.ownerAttempt
        ? counters.ownerAttempt.failures
        : await reserveAttempt(this.db, keys.client, now, CLIENT_CURVE);
      if (reserved === undefined) {
        this.refuse((await findThrottle(this.db, keys.client))?.blocked_until);
      }
      return { accountCounted: false, committed: Promise.resolve() };
    }
    const account = row(keys.account);
    if (account && now - account.window_start < ACCOUNT_WINDOW_MS) {
      if (account.failures >= ACCOUNT_MAX_FAILURES) throw new AppError('too_many_attempts');
    }
    const { committed } = await transactionCommitting(this.db, async (trx) => {
      // Both reservations sent together, the account's first (db/transaction.ts: in that order).
      // A parallel attempt may have taken the client's last free one meanwhile: its refusal rolls
      // the account's reservation back.
      const [reserved, own] = await Promise.all([
        reserveWindowedAttempt(trx, keys.day, now, {
          windowMs: ACCOUNT_DAY_MS,
          free: ACCOUNT_GLOBAL_FREE_FAILURES,
          waitMs: ACCOUNT_GLOBAL_WAIT_MS,
          max: ACCOUNT_DAY_MAX_FAILURES,
        }),
        reserveAttempt(trx, keys.client, now, CLIENT_CURVE),
      ]);
      if (reserved === undefined) this.refuse((await findThrottle(trx, keys.day))?.blocked_until);
      if (own === undefined) this.refuse((await findThrottle(trx, keys.client))?.blocked_until);
    });
    return { accountCounted: true, committed };
  }

  /** A failed sign-in: the 30-day count of the NIST cap (the attempt itself was reserved). */
  async failLogin(subject: string): Promise<void> {
    await this.fail(`login:${subject}`, () => null, ACCOUNT_WINDOW_MS);
  }

  /**
   * A successful sign-in: this client's count is cleared, it is the owner's for 30 days, and the
   * account-wide attempt it reserved is given back (it was no failure).
   */
  async succeedLogin(subject: string, client: SignInClient, attempt: LoginAttempt): Promise<void> {
    const keys = loginKeys(subject, client);
    // The account's count before the client's, as beginLogin reserves them: on PostgreSQL two
    // sign-ins of one client at once then take their row locks in one order (no deadlock). Sent
    // together, in that order (db/transaction.ts).
    const now = this.clock.now();
    await Promise.all([
      attempt.accountCounted ? releaseAttempt(this.db, keys.day) : undefined,
      this.reset(keys.client),
      claimWindow(this.db, keys.known, now, now),
    ]);
  }

  /**
   * Gives back what beginLogin reserved when no password was judged (the hashing queue was full)
   * or the sign-in could not be written (the database failed): it was no failure.
   */
  async giveBack(subject: string, client: SignInClient, attempt: LoginAttempt): Promise<void> {
    const keys = loginKeys(subject, client);
    await transaction(this.db, (trx) =>
      Promise.all([
        attempt.accountCounted ? releaseAttempt(trx, keys.day) : undefined,
        releaseAttempt(trx, keys.client),
      ]),
    );
  }

  /** Clears an account's sign-in failures, every client's (unlock by an admin, a new password). */
  async resetAccount(userId: string): Promise<void> {
    const subject = accountSubject(userId);
    await this.reset(`login:${subject}`);
    await this.reset(`login-day:${subject}`);
    await deleteThrottlesWithPrefix(this.db, `login:${subject}:`);
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

/** Retention (maintenance). */
export { deleteStaleThrottles } from './repository.js';
