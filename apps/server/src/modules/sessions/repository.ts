import { sql } from 'kysely';
import type { CompiledQuery } from 'kysely';
import type { BatchedRead, CommittedRead, Db, PooledRead } from '../../db/connection.js';
import { transaction } from '../../db/transaction.js';
import type { SessionRow, SessionTable, UserRow } from '../../db/schema.js';
import type { Slots } from '../../db/precompiled.js';
import { compiledOnce, precompiled } from '../../db/precompiled.js';
import {
  committedRead,
  isPostgres,
  kept,
  pooledBatchRead,
  pooledRead,
} from '../../db/connection.js';
import {
  activeKeyId,
  DataKeyError,
  dataKeys,
  open,
  seal,
  sealedKeyId,
} from '../../security/field-crypto.js';

/** What a session carries of its user: the account's presentation and its sign-in options. */
export type SessionUser = Pick<
  UserRow,
  | 'id'
  | 'email'
  | 'email_verified_at'
  | 'phone'
  | 'phone_verified_at'
  | 'first_name'
  | 'last_name'
  | 'profile'
  | 'status'
  | 'roles'
  | 'language'
  | 'totp_enabled_at'
  | 'recovery_codes_left'
>;

export type SessionWithUser = SessionRow & { user: Readonly<SessionUser> };

/**
 * The session row and its user's version (the user by primary key, one column): all the check
 * needs. The user's fields come from the per-process cache valid for that version.
 */
function sessionColumns(db: Db) {
  return db.selectFrom('sessions').select([
    'sessions.id',
    'sessions.token_hash',
    'sessions.user_id',
    'sessions.stage',
    'sessions.created_at',
    'sessions.last_seen_at',
    'sessions.idle_expires_at',
    'sessions.absolute_expires_at',
    'sessions.ip',
    'sessions.user_agent',
    'sessions.mfa_verified_at',
    'sessions.trusted_device_id',
    'sessions.reauthenticated_at',
    'sessions.amr',
    'sessions.upstream_acr',
    // A scalar subquery, not a join: SQLite runs it in a third of the join's time (same plan).
    (eb) =>
      eb
        .selectFrom('users')
        .select('users.version')
        .whereRef('users.id', '=', 'sessions.user_id')
        .as('user_version'),
  ]);
}

function sessionQuery(db: Db, tokenHash: string) {
  return kept(sessionColumns(db).where('sessions.token_hash', '=', tokenHash));
}
type SessionQueryRow = Awaited<ReturnType<ReturnType<typeof sessionQuery>['executeTakeFirst']>>;
type FoundSessionRow = NonNullable<SessionQueryRow>;

/**
 * The same, for the sessions of `arity` token hashes at once, each a parameter (`in ($1, …)`): a
 * statement per arity, each planned once by PostgreSQL (db/connection.ts `batchArity`).
 */
function sessionsQuery(db: Db, arity: number) {
  return kept(sessionColumns(db).where('sessions.token_hash', 'in', Array<string>(arity).fill('')));
}

function sessionUserQuery(db: Db, userId: string) {
  return kept(db.selectFrom('users'))
    .select([
      'id',
      'email',
      'email_verified_at',
      'phone',
      'phone_verified_at',
      'first_name',
      'last_name',
      'profile',
      'status',
      'roles',
      'language',
      'totp_enabled_at',
      'recovery_codes_left',
      'version',
    ])
    .where('id', '=', userId);
}
type SessionUserRow = Awaited<ReturnType<ReturnType<typeof sessionUserQuery>['executeTakeFirst']>>;

interface Compiled {
  session: CompiledQuery<SessionQueryRow>;
  user: CompiledQuery<SessionUserRow>;
  /** SQLite: the same two reads on the read-only connection, synchronous (db/connection.ts). */
  readSession: CommittedRead<SessionQueryRow> | undefined;
  readUser: CommittedRead<SessionUserRow> | undefined;
  /**
   * PostgreSQL: the same two reads on the pool directly, prepared (db/connection.ts); the session's
   * batched with the other checks of the same turn of the event loop.
   */
  poolSession: BatchedRead<FoundSessionRow> | undefined;
  poolUser: PooledRead<SessionUserRow> | undefined;
}
// Compiled once per database: building the SQL costs more than the indexed lookup itself.
const compiledQueries = new WeakMap<Db, Compiled>();

function compiledFor(db: Db): Compiled {
  let compiled = compiledQueries.get(db);
  if (!compiled) {
    const session = compiledOnce(sessionQuery(db, '').compile());
    const user = compiledOnce(sessionUserQuery(db, '').compile());
    compiled = {
      session,
      user,
      readSession: committedRead(db, session),
      readUser: committedRead(db, user),
      poolSession: pooledBatchRead<FoundSessionRow>(
        db,
        (arity) => compiledOnce(sessionsQuery(db, arity).compile()),
        (row) => row.token_hash,
      ),
      poolUser: pooledRead(db, user),
    };
    compiledQueries.set(db, compiled);
  }
  return compiled;
}

/**
 * The users seen by this process's session checks, each valid for one version of its row (the
 * database raises `users.version` on every change, migration 0023): a check whose session row
 * names another version reads the user again. Bounded; the least recently used goes first.
 */
export class SessionUserCache {
  private readonly entries = new Map<string, { version: number; user: Readonly<SessionUser> }>();

  constructor(private readonly capacity = 10_000) {}

  get(userId: string, version: number): Readonly<SessionUser> | undefined {
    const entry = this.entries.get(userId);
    if (!entry || entry.version !== version) return undefined;
    // Most recently used last: Map keeps insertion order.
    this.entries.delete(userId);
    this.entries.set(userId, entry);
    return entry.user;
  }

  set(userId: string, version: number, user: Readonly<SessionUser>): void {
    this.entries.delete(userId);
    this.entries.set(userId, { version, user });
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
  }

  get size(): number {
    return this.entries.size;
  }
}

const userCaches = new WeakMap<Db, SessionUserCache>();

/** This process's cache of session users for a database. */
export function sessionUserCache(db: Db): SessionUserCache {
  let cache = userCaches.get(db);
  if (!cache) {
    cache = new SessionUserCache();
    userCaches.set(db, cache);
  }
  return cache;
}

/**
 * The hot path: one query on the unique token-hash index, with the user's version by primary key; the user's fields from the cache, or a second lookup by primary key when the
 * version moved (or the process has not seen the user yet).
 */
export async function findSessionByTokenHash(
  db: Db,
  tokenHash: string,
): Promise<SessionWithUser | undefined> {
  const compiled = compiledFor(db);
  const row = compiled.readSession
    ? compiled.readSession([tokenHash])
    : compiled.poolSession
      ? await compiled.poolSession(tokenHash)
      : (await db.executeQuery<SessionQueryRow>({ ...compiled.session, parameters: [tokenHash] }))
          .rows[0];
  if (!row) return undefined;
  const { user_version } = row;
  // The user is gone (its sessions go with it, by the foreign key): no session.
  if (user_version === null) return undefined;
  const cache = sessionUserCache(db);
  let user = cache.get(row.user_id, user_version);
  if (!user) {
    const fresh = compiled.readUser
      ? compiled.readUser([row.user_id])
      : compiled.poolUser
        ? await compiled.poolUser([row.user_id])
        : (await db.executeQuery<SessionUserRow>({ ...compiled.user, parameters: [row.user_id] }))
            .rows[0];
    // Deleted between the two reads: as if the session had not been found (it goes with the user).
    if (!fresh) return undefined;
    const { version, ...fields } = fresh;
    user = Object.freeze(fields);
    cache.set(row.user_id, version, user);
  }
  return sessionWithUser(row, user);
}

/**
 * The session of a row, with its user: one object of a fixed shape, written field by field rather
 * than copied twice (a rest and a spread), on every signed-in request.
 */
function sessionWithUser(row: SessionRow, user: Readonly<SessionUser>): SessionWithUser {
  return {
    id: row.id,
    token_hash: row.token_hash,
    user_id: row.user_id,
    stage: row.stage,
    created_at: row.created_at,
    last_seen_at: row.last_seen_at,
    idle_expires_at: row.idle_expires_at,
    absolute_expires_at: row.absolute_expires_at,
    ip: row.ip,
    user_agent: row.user_agent,
    mfa_verified_at: row.mfa_verified_at,
    trusted_device_id: row.trusted_device_id,
    reauthenticated_at: row.reauthenticated_at,
    amr: row.amr,
    upstream_acr: row.upstream_acr,
    user,
  };
}

/** A session opened through an upstream identity provider: the provider and its ID token. */
export interface UpstreamSignIn {
  provider: string;
  idToken: string;
}

// The upstream ID token is sealed here and opened here, nowhere else (like the users' INS).
function upstreamTokenContext(sessionId: string): string {
  return `sessions.upstream_id_token:${sessionId}`;
}

/** Inserts a session; the upstream ID token, given in clear, is stored sealed with the data key. */
export async function insertSession(
  db: Db,
  session: SessionRow,
  upstream: UpstreamSignIn | null = null,
): Promise<void> {
  await sessionInserted.run(db, {
    ...session,
    upstream_provider: upstream?.provider ?? null,
    upstream_id_token: upstream
      ? seal(dataKeys(), upstreamTokenContext(session.id), upstream.idToken)
      : null,
  });
}

const sessionInserted = precompiled((db: Db, $: Slots<SessionTable>) =>
  kept(
    db.insertInto('sessions').values({
      id: $('id'),
      token_hash: $('token_hash'),
      user_id: $('user_id'),
      stage: $('stage'),
      created_at: $('created_at'),
      last_seen_at: $('last_seen_at'),
      idle_expires_at: $('idle_expires_at'),
      absolute_expires_at: $('absolute_expires_at'),
      ip: $('ip'),
      user_agent: $('user_agent'),
      mfa_verified_at: $('mfa_verified_at'),
      trusted_device_id: $('trusted_device_id'),
      reauthenticated_at: $('reauthenticated_at'),
      amr: $('amr'),
      upstream_provider: $('upstream_provider'),
      upstream_id_token: $('upstream_id_token'),
      upstream_acr: $('upstream_acr'),
    } satisfies Record<keyof SessionTable, unknown>),
  ),
);

/**
 * The upstream sign-in of the session with this token hash, with the session's expiries; the
 * token is null when the session has none, or when it no longer opens (sealed under a data key
 * dropped since: the logout then skips the provider).
 */
export async function findUpstreamSignIn(
  db: Db,
  tokenHash: string,
): Promise<
  | {
      upstream: UpstreamSignIn | null;
      idleExpiresAt: number;
      absoluteExpiresAt: number;
    }
  | undefined
> {
  const row = await upstreamSignInOf.first(db, { tokenHash });
  if (!row) return undefined;
  let upstream: UpstreamSignIn | null = null;
  if (row.upstream_provider !== null && row.upstream_id_token !== null) {
    try {
      upstream = {
        provider: row.upstream_provider,
        idToken: open(dataKeys(), upstreamTokenContext(row.id), row.upstream_id_token),
      };
    } catch (err) {
      if (!(err instanceof DataKeyError)) throw err;
    }
  }
  return {
    upstream,
    idleExpiresAt: row.idle_expires_at,
    absoluteExpiresAt: row.absolute_expires_at,
  };
}

/** The sessions' sealed upstream ID tokens counted by data key id (`data:rotate-key --check`). */
export async function sealedUpstreamTokenCensus(
  db: Db,
  batchSize = 1000,
): Promise<{ byKey: Record<string, number>; firstOf: Record<string, string> }> {
  const census: { byKey: Record<string, number>; firstOf: Record<string, string> } = {
    byKey: {},
    firstOf: {},
  };
  let after = '';
  for (;;) {
    const rows = await db
      .selectFrom('sessions')
      .select(['id', 'upstream_id_token'])
      .where('id', '>', after)
      .where('upstream_id_token', 'is not', null)
      .orderBy('id')
      .limit(batchSize)
      .execute();
    for (const row of rows) {
      const keyId = sealedKeyId(row.upstream_id_token ?? '');
      census.byKey[keyId] = (census.byKey[keyId] ?? 0) + 1;
      census.firstOf[keyId] ??= `sessions.upstream_id_token of session ${row.id}`;
    }
    const last = rows.at(-1);
    if (!last || rows.length < batchSize) return census;
    after = last.id;
  }
}

/**
 * Re-seals with the active data key the upstream ID tokens of the next `batchSize` sessions after
 * `afterId` sealed under another key, in one short transaction: every token is opened before
 * anything is written (one that does not open fails the batch, which writes nothing), and each is
 * written only over the value read (compare-and-set).
 */
export async function resealUpstreamTokenBatch(
  db: Db,
  afterId: string,
  batchSize: number,
): Promise<{ lastId: string | null; resealed: number; conflicts: number }> {
  const current = `v1.${activeKeyId(dataKeys())}.%`;
  return transaction(db, async (trx) => {
    const rows = await trx
      .selectFrom('sessions')
      .select(['id', 'upstream_id_token'])
      .where('id', '>', afterId)
      .where('upstream_id_token', 'like', 'v1.%')
      .where('upstream_id_token', 'not like', current)
      .orderBy('id')
      .limit(batchSize)
      .$if(isPostgres(trx), (qb) => qb.forUpdate())
      .execute();
    const plans = rows.map((row) => {
      const stored = row.upstream_id_token ?? '';
      try {
        return {
          id: row.id,
          stored,
          plain: open(dataKeys(), upstreamTokenContext(row.id), stored),
        };
      } catch (err) {
        const reason = err instanceof Error ? err.message : String(err);
        throw new DataKeyError(`sessions.upstream_id_token of session ${row.id}: ${reason}`);
      }
    });
    let resealed = 0;
    let conflicts = 0;
    for (const plan of plans) {
      const result = await trx
        .updateTable('sessions')
        .set({ upstream_id_token: seal(dataKeys(), upstreamTokenContext(plan.id), plan.plain) })
        .where('id', '=', plan.id)
        .where('upstream_id_token', '=', plan.stored)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 1) resealed += 1;
      else conflicts += 1;
    }
    return { lastId: rows.at(-1)?.id ?? null, resealed, conflicts };
  });
}

const upstreamSignInOf = precompiled((db: Db, $: Slots<{ tokenHash: string }>) =>
  kept(
    db
      .selectFrom('sessions')
      .select([
        'id',
        'upstream_provider',
        'upstream_id_token',
        'idle_expires_at',
        'absolute_expires_at',
      ])
      .where('token_hash', '=', $('tokenHash')),
  ),
);

const sessionDeleted = precompiled((db: Db, $: Slots<{ tokenHash: string }>) =>
  kept(db.deleteFrom('sessions').where('token_hash', '=', $('tokenHash'))),
);

export async function deleteSessionByTokenHash(db: Db, tokenHash: string): Promise<void> {
  await sessionDeleted.run(db, { tokenHash });
}

/** Ends a user's sessions; the one kept, if any, stays open but no longer on a trusted device. */
export async function deleteSessionsOfUser(
  db: Db,
  userId: string,
  exceptSessionId?: string,
): Promise<void> {
  await db
    .deleteFrom('sessions')
    .where('user_id', '=', userId)
    .$if(exceptSessionId !== undefined, (qb) => qb.where('id', '!=', exceptSessionId ?? ''))
    .execute();
  if (exceptSessionId !== undefined) {
    await db
      .updateTable('sessions')
      .set({ trusted_device_id: null })
      .where('id', '=', exceptSessionId)
      .execute();
  }
}

/** Slides the idle expiry (never past the absolute one). */
export async function touchSession(
  db: Db,
  id: string,
  now: number,
  idleExpiresAt: number,
): Promise<void> {
  await sessionTouched.run(db, { id, now, idleExpiresAt });
}

const sessionTouched = precompiled(
  (db: Db, $: Slots<{ id: string; now: number; idleExpiresAt: number }>) =>
    kept(
      db
        .updateTable('sessions')
        .set({ last_seen_at: $('now'), idle_expires_at: $('idleExpiresAt') })
        .where('id', '=', $('id')),
    ),
);

/**
 * The sessions past their expiry. A session's idle expiry never passes its absolute one (set and
 * slid capped by it: service.ts `openSession`, `slide`), so a session past either is past its
 * idle expiry: one index range (`sessions_idle_expires_idx`), not the table.
 */
export async function deleteExpiredSessions(db: Db, now: number): Promise<number> {
  const result = await db
    .deleteFrom('sessions')
    .where('idle_expires_at', '<', now)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** A session's columns but the upstream ID token's (read only at logout). */
const SESSION_COLUMNS = [
  'id',
  'token_hash',
  'user_id',
  'stage',
  'created_at',
  'last_seen_at',
  'idle_expires_at',
  'absolute_expires_at',
  'ip',
  'user_agent',
  'mfa_verified_at',
  'trusted_device_id',
  'reauthenticated_at',
  'amr',
  'upstream_acr',
] as const;

const sessionById = precompiled((db: Db, $: Slots<{ id: string }>) =>
  kept(db.selectFrom('sessions').select(SESSION_COLUMNS).where('id', '=', $('id'))),
);

export function findSessionById(db: Db, id: string): Promise<SessionRow | undefined> {
  return sessionById.first(db, { id });
}

/** Moves a session to a stage; a new token hash when the token is rotated. */
export async function setSessionStage(
  db: Db,
  id: string,
  stage: string,
  tokenHash?: string,
): Promise<void> {
  if (tokenHash) await stageAndTokenSet.run(db, { id, stage, tokenHash });
  else await stageSet.run(db, { id, stage });
}

const stageSet = precompiled((db: Db, $: Slots<{ id: string; stage: string }>) =>
  kept(
    db
      .updateTable('sessions')
      .set({ stage: $('stage') })
      .where('id', '=', $('id')),
  ),
);
const stageAndTokenSet = precompiled(
  (db: Db, $: Slots<{ id: string; stage: string; tokenHash: string }>) =>
    kept(
      db
        .updateTable('sessions')
        .set({ stage: $('stage'), token_hash: $('tokenHash') })
        .where('id', '=', $('id')),
    ),
);

/**
 * Sends a complete session back to the second factor (a platform asks for two factors and a
 * trusted browser had skipped it): the browser stays trusted, this session no longer counts it.
 */
export async function requireSecondFactor(db: Db, id: string, stage: string): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ stage, trusted_device_id: null, mfa_verified_at: null })
    .where('id', '=', id)
    .execute();
}

/** Records the second factor on a session, and the device it now trusts, if any. */
export async function markSecondFactorPassed(
  db: Db,
  id: string,
  now: number,
  trustedDeviceId: string | null,
  /** The method's RFC 8176 reference, added to the session's (`otp`, `sms`). */
  method: string,
): Promise<void> {
  const values = { id, now, method: ` ${method}` };
  if (trustedDeviceId) await passedOnDevice.run(db, { ...values, trustedDeviceId });
  else await passed.run(db, values);
}

interface SecondFactorPassed {
  id: string;
  now: number;
  /** The method's reference, after a space (added to the session's `amr`). */
  method: string;
}

const passed = precompiled((db: Db, $: Slots<SecondFactorPassed>) =>
  kept(
    db
      .updateTable('sessions')
      .set({
        mfa_verified_at: $('now'),
        amr: sql<string>`coalesce(amr, 'pwd') || ${$('method')}`,
      })
      .where('id', '=', $('id')),
  ),
);
const passedOnDevice = precompiled(
  (db: Db, $: Slots<SecondFactorPassed & { trustedDeviceId: string }>) =>
    kept(
      db
        .updateTable('sessions')
        .set({
          mfa_verified_at: $('now'),
          amr: sql<string>`coalesce(amr, 'pwd') || ${$('method')}`,
          trusted_device_id: $('trustedDeviceId'),
        })
        .where('id', '=', $('id')),
    ),
);

/**
 * Records a step-up to a higher level on a complete session: its methods now (`amr`), the
 * upstream `acr` when the step-up went through a provider, and the time of the proof.
 */
export async function markAssuranceRaised(
  db: Db,
  id: string,
  now: number,
  raised: { amr: string; upstreamAcr?: string },
): Promise<void> {
  await db
    .updateTable('sessions')
    .set({
      amr: raised.amr,
      mfa_verified_at: now,
      ...(raised.upstreamAcr ? { upstream_acr: raised.upstreamAcr } : {}),
    })
    .where('id', '=', id)
    .execute();
}

/** Records a second factor passed again by the signed-in user (a step-up): its time only. */
export async function markSecondFactorRenewed(db: Db, id: string, now: number): Promise<void> {
  await db.updateTable('sessions').set({ mfa_verified_at: now }).where('id', '=', id).execute();
}

/** Records a step-up (the password re-entered) on a session. */
export async function markReauthenticated(db: Db, id: string, now: number): Promise<void> {
  await db.updateTable('sessions').set({ reauthenticated_at: now }).where('id', '=', id).execute();
}

/** A user's sessions still alive, newest first (the admin's view of the user). */
export function listLiveSessionsOfUser(db: Db, userId: string, now: number) {
  return db
    .selectFrom('sessions')
    .select([
      'id',
      'stage',
      'created_at',
      'last_seen_at',
      'ip',
      'user_agent',
      'amr',
      'mfa_verified_at',
      'upstream_acr',
    ])
    .where('user_id', '=', userId)
    .where('idle_expires_at', '>', now)
    .where('absolute_expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .limit(50)
    .execute();
}

/** Every session row of a user, live or awaiting purge, without its token (the data export). */
export function sessionsOfUser(db: Db, userId: string) {
  return db
    .selectFrom('sessions')
    .select([
      'id',
      'stage',
      'created_at',
      'last_seen_at',
      'idle_expires_at',
      'absolute_expires_at',
      'ip',
      'user_agent',
      'mfa_verified_at',
      'reauthenticated_at',
      'trusted_device_id',
      'amr',
      'upstream_acr',
    ])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .execute();
}
/** Whether this account signed in from the browser before; refreshes its last sighting if so. */
export async function touchKnownBrowser(
  db: Db,
  userId: string,
  tokenHash: string,
  now: number,
): Promise<boolean> {
  const { numAffectedRows } = await browserTouched.run(db, { userId, tokenHash, now });
  return numAffectedRows !== undefined && numAffectedRows > 0n;
}

interface KnownBrowser {
  userId: string;
  tokenHash: string;
  now: number;
}

const browserTouched = precompiled((db: Db, $: Slots<KnownBrowser>) =>
  kept(
    db
      .updateTable('known_browsers')
      .set({ last_seen_at: $('now') })
      .where('user_id', '=', $('userId'))
      .where('token_hash', '=', $('tokenHash')),
  ),
);

/** Remembers a browser for an account (idempotent: two sign-ins at once store it once). */
export async function rememberBrowser(
  db: Db,
  userId: string,
  tokenHash: string,
  now: number,
): Promise<void> {
  await browserRemembered.run(db, { userId, tokenHash, now });
}

const browserRemembered = precompiled((db: Db, $: Slots<KnownBrowser>) =>
  kept(
    db
      .insertInto('known_browsers')
      .values({
        user_id: $('userId'),
        token_hash: $('tokenHash'),
        created_at: $('now'),
        last_seen_at: $('now'),
      })
      .onConflict((oc) => oc.columns(['user_id', 'token_hash']).doNothing()),
  ),
);

/** Forgets browsers not seen since `before`. */
export async function deleteBrowsersUnseenSince(db: Db, before: number): Promise<number> {
  const result = await db
    .deleteFrom('known_browsers')
    .where('last_seen_at', '<', before)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Deletes one session if it is this user's; how many rows went (0 or 1). */
export async function deleteSessionOfUser(db: Db, userId: string, id: string): Promise<number> {
  const result = await db
    .deleteFrom('sessions')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Deletes every session of a user but one (the kept one is left as it is); how many went. */
export async function deleteOtherSessionsOfUser(
  db: Db,
  userId: string,
  keptId: string,
): Promise<number> {
  const result = await db
    .deleteFrom('sessions')
    .where('user_id', '=', userId)
    .where('id', '!=', keptId)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The browsers an account signed in from, without their cookie's hash (the data export). */
export function knownBrowsersOfUser(db: Db, userId: string) {
  return db
    .selectFrom('known_browsers')
    .select(['created_at', 'last_seen_at'])
    .where('user_id', '=', userId)
    .orderBy('last_seen_at', 'desc')
    .execute();
}
