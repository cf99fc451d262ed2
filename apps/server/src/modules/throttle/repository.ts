import type { OnConflictBuilder } from 'kysely';
import { sql } from 'kysely';
import type { Db } from '../../db/connection.js';
import { isPostgres, kept } from '../../db/connection.js';
import type { Database, ThrottleTable } from '../../db/schema.js';
import type { Precompiled, Slots } from '../../db/precompiled.js';
import { precompiled } from '../../db/precompiled.js';
import { commitsWithoutDiskWait, isDatabaseItself } from '../../db/transaction.js';

// The statements a sign-in runs are compiled once per database (`precompiled`), one per shape
// where a shape varies (the keys of readLoginCounters, the block curve of reserveAttempt).

const throttleByKey = precompiled((db: Db, $: Slots<{ key: string }>) =>
  kept(
    db
      .selectFrom('throttles')
      .select(['failures', 'blocked_until', 'window_start'])
      .where('key', '=', $('key')),
  ),
);

export function findThrottle(db: Db, key: string) {
  return throttleByKey.first(db, { key });
}

/**
 * Counts one failure in a single upsert (parallel failures are all counted); a count whose window
 * started before `cutoff` restarts at 1. Returns the new count and its window start.
 */
const failureCounted = precompiled(
  (db: Db, $: Slots<{ key: string; now: number; cutoff: number }>) =>
    db
      .insertInto('throttles')
      .values({ key: $('key'), failures: 1, window_start: $('now'), blocked_until: null })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet((eb) => ({
          failures: eb
            .case()
            .when('throttles.window_start', '<', $('cutoff'))
            .then(1)
            .else(eb('throttles.failures', '+', 1))
            .end(),
          window_start: eb
            .case()
            .when('throttles.window_start', '<', $('cutoff'))
            .then($('now'))
            .else(eb.ref('throttles.window_start'))
            .end(),
        })),
      )
      .returning(['failures', 'window_start']),
);

export async function incrementFailures(db: Db, key: string, now: number, cutoff: number) {
  const row = await failureCounted.first(db, { key, now, cutoff });
  if (!row) throw new Error('the failure count returned no row');
  return row;
}

/** Blocks the key until `until`, never shortening a longer block set by a parallel failure. */
export async function extendBlock(db: Db, key: string, until: number): Promise<void> {
  await db
    .updateTable('throttles')
    .set({ blocked_until: until })
    .where('key', '=', key)
    .where((eb) => eb.or([eb('blocked_until', 'is', null), eb('blocked_until', '<', until)]))
    .execute();
}

const throttleDeleted = precompiled((db: Db, $: Slots<{ key: string }>) =>
  kept(db.deleteFrom('throttles').where('key', '=', $('key'))),
);

export async function deleteThrottle(db: Db, key: string): Promise<void> {
  await throttleDeleted.run(db, { key });
}

const windowStartOf = precompiled((db: Db, $: Slots<{ key: string }>) =>
  kept(db.selectFrom('throttles').select('window_start').where('key', '=', $('key'))),
);

/** When the key's window started (a cooldown's last request), if it has one. */
export async function findWindowStart(db: Db, key: string): Promise<number | undefined> {
  return (await windowStartOf.first(db, { key }))?.window_start;
}

const windowClaimed = precompiled(
  (db: Db, $: Slots<{ key: string; now: number; cutoff: number }>) =>
    kept(
      db
        .insertInto('throttles')
        .values({ key: $('key'), failures: 0, window_start: $('now'), blocked_until: null })
        .onConflict((oc) =>
          oc
            .column('key')
            .doUpdateSet({ window_start: $('now') })
            .where('throttles.window_start', '<=', $('cutoff')),
        )
        .returning('window_start'),
    ),
);

/**
 * Starts the key's window at `now` unless it started after `cutoff`, in one statement: of
 * parallel claims exactly one wins. Returns whether this one did.
 */
export async function claimWindow(
  db: Db,
  key: string,
  now: number,
  cutoff: number,
): Promise<boolean> {
  return (await windowClaimed.first(db, { key, now, cutoff })) !== undefined;
}

/** The attempts reserveAttempt's block curve may change over; later ones get its last value. */
const MAX_STEPS = 24;

/**
 * A block curve (`blockMs(n)`: the block the n-th attempt in a row sets, 0 for none), laid out once:
 * the steps below its ceiling are spelled out in the statements that reserve on it (one statement
 * for each curve), the blocks of the others are its first and its ceiling.
 */
export interface BlockCurve {
  /** The steps' attempt numbers, as a key of the statements built for this curve. */
  readonly shape: string;
  readonly steps: readonly number[];
  readonly firstMs: number;
  readonly ceilingMs: number;
  /** The block of each step, in the steps' order. */
  readonly stepMs: readonly number[];
}

export function blockCurve(blockMs: (attempt: number) => number): BlockCurve {
  const block = (attempt: number) => Math.max(0, blockMs(attempt));
  // The curve reaches its ceiling within these steps; later attempts get the last one.
  const ceilingMs = block(MAX_STEPS + 1);
  const steps = Array.from({ length: MAX_STEPS }, (_, i) => i + 1).filter(
    (n) => block(n) !== ceilingMs,
  );
  return {
    shape: steps.join(','),
    steps,
    firstMs: block(1),
    ceilingMs,
    stepMs: steps.map(block),
  };
}

/** A reservation's values on `curve` at `now`: each block as the time it ends, or null. */
function curveValues(curve: BlockCurve, now: number): ReservedAttempt {
  const until = (ms: number) => (ms > 0 ? now + ms : null);
  return {
    now,
    first: until(curve.firstMs),
    ceiling: until(curve.ceilingMs),
    steps: curve.stepMs.map(until),
  };
}

/**
 * Reserves one attempt under `key` unless it is blocked, in one statement: the attempt is counted
 * before the password is checked (a parallel burst gets no more checks than a sequence), and the
 * block its failure would earn (the curve's for the n-th attempt in a row) is set with it.
 * Returns the attempt's number, or undefined while the key is blocked.
 */
export async function reserveAttempt(
  db: Db,
  key: string,
  now: number,
  curve: BlockCurve,
): Promise<number | undefined> {
  let query = attemptReserved.get(curve.shape);
  if (!query) {
    query = precompiled((db: Db, $: Slots<ReservedAttempt & { key: string }>) =>
      kept(
        db
          .insertInto('throttles')
          .values({ key: $('key'), failures: 1, window_start: $('now'), blocked_until: $('first') })
          .onConflict((oc) => attemptCounted(oc, $, curve.steps))
          .returning('failures'),
      ),
    );
    attemptReserved.set(curve.shape, query);
  }
  return (await query.first(db, { ...curveValues(curve, now), key }))?.failures;
}

interface ReservedAttempt {
  now: number;
  /** The block of a first attempt. */
  first: number | null;
  /** The block of any attempt past the steps. */
  ceiling: number | null;
  /** The block of the n-th attempt of each step, in the steps' order. */
  steps: (number | null)[];
}

/** reserveAttempt's statement for each curve's steps (a few curves: the settings'). */
const attemptReserved = new Map<
  string,
  Precompiled<ReservedAttempt & { key: string }, { failures: number }>
>();

/** An attempt counted on the key's existing row, unless the key is blocked now. */
function attemptCounted(
  oc: OnConflictBuilder<Database, 'throttles'>,
  $: Slots<ReservedAttempt>,
  steps: readonly number[],
) {
  const last = sql<number | null>`cast(${$('ceiling')} as bigint)`;
  const blockedUntil = steps.length
    ? sql<number | null>`case throttles.failures + 1 ${sql.join(
        steps.map((n, i) => sql`when ${n} then cast(${$('steps', i)} as bigint)`),
        sql` `,
      )} else ${last} end`
    : last;
  return oc
    .column('key')
    .doUpdateSet({ failures: sql`throttles.failures + 1`, blocked_until: blockedUntil })
    .where((eb) =>
      eb.or([
        eb('throttles.blocked_until', 'is', null),
        eb('throttles.blocked_until', '<=', $('now')),
      ]),
    );
}

/** The counters a sign-in reads before its password is checked (throttle/service beginLogin). */
export interface LoginCountersQuery {
  /** This client's own count. */
  client: string;
  /** Since when this client is one of the owner's. */
  known: string;
  /** The account's 30-day count. */
  account: string;
  /** The address's count, when the address is known. */
  ip: string | null;
  /** A browser the owner trusts: one of the owner's whatever `known` says. */
  trusted: boolean;
  now: number;
  /** A client that signed in after this is one of the owner's (`known`'s window start). */
  knownSince: number;
  /** The client's block curve, as reserveAttempt's. */
  curve: BlockCurve;
}

export interface LoginCounters {
  /** The keys' rows, as they were before this statement (keys without a row are absent). */
  rows: ThrottleTable[];
  /** Whether the client is one of the owner's (trusted, or signed in since `knownSince`). */
  owner: boolean;
  /**
   * PostgreSQL: the owner's attempt was reserved in the same statement, unless the address or
   * the client was blocked (`failures` then undefined). Absent on SQLite, where reserveAttempt
   * follows in a statement of its own.
   */
  ownerAttempt?: { failures: number | undefined };
}

/** The rows of readLoginCounters' statement that are no key's: the owner's flag, the attempt. */
const OWNER_ROW = '#owner';
const RESERVED_ROW = '#reserved';

interface LoginCountersValues extends ReservedAttempt {
  keys: readonly string[];
  client: string;
  known: string;
  ip: string | null;
  trusted: number;
  knownSince: number;
}

/**
 * readLoginCounters' statement for each number of keys and curve (PostgreSQL) or number of keys
 * (SQLite).
 */
const loginCountersRead = new Map<string, Precompiled<LoginCountersValues, ThrottleTable>>();

/**
 * The counters of a sign-in's keys and whether its client is one of the owner's, in one statement
 * by primary key. On PostgreSQL the same statement reserves the owner's client its attempt
 * (reserveAttempt's upsert) when neither the address nor the client is blocked in what it read:
 * one round trip before the hash instead of two. The reservation is decided from the rows this
 * statement returns (one snapshot), so the attempt it reserves is never one the caller refuses.
 * SQLite cannot write in a `with`; the caller reserves there with reserveAttempt.
 *
 * The reservation commits without waiting for the disk (`commitsWithoutDiskWait`: the statement
 * commits alone, so `db` must be the database itself, not a transaction). No verdict on the
 * password is given before the sign-in's own transaction after the hash commits, waiting for the
 * disk, which makes the reservation durable with it: a crash of the database server can lose
 * only the reservations of sign-ins that it also kept from being answered.
 */
export async function readLoginCounters(db: Db, query: LoginCountersQuery): Promise<LoginCounters> {
  const keys = [query.client, query.known, query.account, ...(query.ip === null ? [] : [query.ip])];
  const { curve } = query;
  const reserving = isPostgres(db);
  if (reserving && !isDatabaseItself(db)) {
    throw new Error("a sign-in's counters are read and reserved in a statement of their own");
  }
  const shape = `${keys.length}|${reserving ? curve.shape : ''}`;
  let statement = loginCountersRead.get(shape);
  if (!statement) {
    statement = loginCountersFor(keys.length, reserving ? curve.steps : null);
    loginCountersRead.set(shape, statement);
  }
  const rows = await statement.all(db, {
    ...curveValues(curve, query.now),
    keys,
    client: query.client,
    known: query.known,
    ip: query.ip,
    trusted: query.trusted ? 1 : 0,
    knownSince: query.knownSince,
  });
  const reserved = rows.find((row) => row.key === RESERVED_ROW);
  return {
    rows: rows.filter((row) => row.key !== OWNER_ROW && row.key !== RESERVED_ROW),
    owner: rows.some((row) => row.key === OWNER_ROW && row.failures === 1),
    ...(reserving ? { ownerAttempt: { failures: reserved?.failures } } : {}),
  };
}

/** The statement of readLoginCounters for `count` keys; `steps`, the curve's, when it reserves. */
function loginCountersFor(count: number, steps: readonly number[] | null) {
  return precompiled((db: Db, $: Slots<LoginCountersValues>) => {
    const owner = sql<boolean>`(cast(${$('trusted')} as integer) = 1 or exists (select 1 from "throttles" as "known" where "known"."key" = ${$('known')} and "known"."window_start" > cast(${$('knownSince')} as bigint)))`;
    const read = db
      .selectFrom('throttles')
      .select(['key', 'failures', 'blocked_until', 'window_start'])
      .where(
        'key',
        'in',
        Array.from({ length: count }, (_, i) => $('keys', i)),
      )
      .unionAll(
        db.selectNoFrom([
          sql.lit(OWNER_ROW).as('key'),
          sql<number>`case when ${owner} then 1 else 0 end`.as('failures'),
          sql<number | null>`cast(null as bigint)`.as('blocked_until'),
          sql<number>`cast(0 as bigint)`.as('window_start'),
        ]),
      );
    if (steps === null) return kept(read);
    // Neither the address nor the client blocked now: what the caller refuses on.
    const open = sql<boolean>`not exists (select 1 from "throttles" as "blocking" where "blocking"."key" in (${$('ip')}, ${$('client')}) and "blocking"."blocked_until" > cast(${$('now')} as bigint))`;
    const withReserved = db.with('reserved', (qc) =>
      qc
        .insertInto('throttles')
        .columns(['key', 'failures', 'window_start', 'blocked_until'])
        .expression(
          qc
            .selectNoFrom([
              sql<string>`${$('client')}`.as('key'),
              sql<number>`1`.as('failures'),
              sql<number>`cast(${$('now')} as bigint)`.as('window_start'),
              sql<number | null>`cast(${$('first')} as bigint)`.as('blocked_until'),
            ])
            .where(sql<boolean>`${owner} and ${open} and ${commitsWithoutDiskWait}`),
        )
        .onConflict((oc) => attemptCounted(oc, $, steps))
        .returning('failures'),
    );
    return kept(
      withReserved
        .selectFrom('reserved')
        .select([
          sql.lit(RESERVED_ROW).as('key'),
          'failures',
          sql<number | null>`cast(null as bigint)`.as('blocked_until'),
          sql<number>`cast(0 as bigint)`.as('window_start'),
        ])
        .unionAll(read),
    );
  });
}

/**
 * Deletes every key that starts with `prefix` (an account's per-client counts) as one range of
 * the key's index: from the prefix up to the prefix with its last character's successor. Keys
 * compare character by character on both databases (migration 0026); they are ASCII.
 */
export async function deleteThrottlesWithPrefix(db: Db, prefix: string): Promise<void> {
  if (!/^[\x20-\x7e]+$/.test(prefix)) throw new Error('a throttle key prefix is printable ASCII');
  const end = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
  await db.deleteFrom('throttles').where('key', '>=', prefix).where('key', '<', end).execute();
}

/** Retention: counters whose window started before `before` and that block nothing now go. */
export async function deleteStaleThrottles(db: Db, before: number, now: number): Promise<number> {
  const result = await db
    .deleteFrom('throttles')
    .where('window_start', '<', before)
    .where((eb) => eb.or([eb('blocked_until', 'is', null), eb('blocked_until', '<', now)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Reserves one attempt in a counting window of `windowMs` that opens at the first attempt, in one
 * statement, unless the key is blocked: the attempt is counted before the password is checked, so
 * parallel attempts are never counted past the limits. From the `free`-th attempt on, the next one
 * waits `waitMs`; the `max`-th closes the key until its window is over. Returns the attempt's
 * number, or undefined while the key is blocked.
 */
export async function reserveWindowedAttempt(
  db: Db,
  key: string,
  now: number,
  limits: { windowMs: number; free: number; waitMs: number; max: number },
): Promise<number | undefined> {
  const { windowMs, free, waitMs, max } = limits;
  const firstBlock = free <= 1 ? now + waitMs : null;
  const values = { key, now, windowMs, free, max, firstBlock, expiredFrom: now - windowMs };
  return (await windowedAttemptReserved.first(db, { ...values, waitUntil: now + waitMs }))
    ?.failures;
}

const windowedAttemptReserved = precompiled(
  (
    db: Db,
    $: Slots<{
      key: string;
      now: number;
      windowMs: number;
      free: number;
      max: number;
      /** The block of a first attempt (when one is all that is free). */
      firstBlock: number | null;
      /** A window that started at this time or before is over. */
      expiredFrom: number;
      waitUntil: number;
    }>,
  ) => {
    const expired = sql<boolean>`throttles.window_start <= cast(${$('expiredFrom')} as bigint)`;
    const next = sql<number>`throttles.failures + 1`;
    return kept(
      db
        .insertInto('throttles')
        .values({
          key: $('key'),
          failures: 1,
          window_start: $('now'),
          blocked_until: $('firstBlock'),
        })
        .onConflict((oc) =>
          oc
            .column('key')
            .doUpdateSet({
              failures: sql`case when ${expired} then 1 else ${next} end`,
              window_start: sql`case when ${expired} then cast(${$('now')} as bigint) else throttles.window_start end`,
              blocked_until: sql`case
            when ${expired} then cast(${$('firstBlock')} as bigint)
            when ${next} >= ${$('max')} then throttles.window_start + cast(${$('windowMs')} as bigint)
            when ${next} >= ${$('free')} then cast(${$('waitUntil')} as bigint)
            else null end`,
            })
            .where((eb) =>
              eb.or([
                expired,
                eb.and([
                  eb.or([
                    eb('throttles.blocked_until', 'is', null),
                    eb('throttles.blocked_until', '<=', $('now')),
                  ]),
                  eb('throttles.failures', '<', $('max')),
                ]),
              ]),
            ),
        )
        .returning('failures'),
    );
  },
);

/** Gives back an attempt reserved under `key` (it was not a failure), and lifts the key's wait. */
export async function releaseAttempt(db: Db, key: string): Promise<void> {
  await attemptReleased.run(db, { key });
}

const attemptReleased = precompiled((db: Db, $: Slots<{ key: string }>) =>
  kept(
    db
      .updateTable('throttles')
      .set({ failures: sql`throttles.failures - 1`, blocked_until: null })
      .where('key', '=', $('key'))
      .where('failures', '>', 0),
  ),
);
