import type { ExpressionBuilder, Selectable } from 'kysely';
import { sql } from 'kysely';
import type { Db } from '../../db/connection.js';
import { transaction } from '../../db/transaction.js';
import { isPostgres, kept } from '../../db/connection.js';
import type { Slots } from '../../db/precompiled.js';
import { precompiled } from '../../db/precompiled.js';
import type {
  ConsentTable,
  Database,
  NewUser,
  SealedUserColumn,
  StoredUserTable,
  UserRow,
  UserTable,
  UserUpdate,
} from '../../db/schema.js';
import { UniqueViolation } from '../../db/errors.js';
import {
  blindIndex,
  blindIndexes,
  DataKeyError,
  dataKeys,
  isSealed,
  open,
  seal,
} from '../../security/field-crypto.js';

// The health identifiers and birth traits are sealed here and nowhere else: every function of
// this file takes and returns plain values, and the database only ever holds `v1.…` ciphertexts
// (bound to their column and row) and the INS's blind index (docs/security.md).

/** The users columns stored sealed. */
export const SEALED_USER_COLUMNS = [
  'ins',
  'ins_oid',
  'parent_ins',
  'birth_date',
  'birth_place_insee',
  'sex',
  'totp_secret',
] as const satisfies readonly SealedUserColumn[];

type StoredUserRow = Selectable<StoredUserTable>;

/**
 * Every column of the users table as stored, named: the account's reads by a key select these
 * rather than `*`, so that a column a migration adds changes nothing of what a statement kept
 * prepared on PostgreSQL returns (db/connection.ts `kept`; a kept `select *` fails once after such
 * a migration). The rows are the stored row's whole shape (`openUser`): one left out fails the
 * typecheck.
 */
const USER_COLUMNS = [
  'id',
  'type',
  'email',
  'email_verified_at',
  'phone',
  'phone_verified_at',
  'password_hash',
  'password_changed_at',
  'must_create_password',
  'profile',
  'status',
  'roles',
  'first_name',
  'last_name',
  'birth_name',
  'language',
  'created_at',
  'updated_at',
  'birth_date',
  'birth_place_insee',
  'sex',
  'ins',
  'ins_oid',
  'first_name_used',
  'last_name_used',
  'professional_id_type',
  'professional_id',
  'job',
  'specialty',
  'cgu_version',
  'pending_email',
  'pending_phone',
  'search_name',
  'category',
  'gender',
  'address_line1',
  'address_line2',
  'address_postal_code',
  'address_city',
  'address_country',
  'parent_ins',
  'totp_secret',
  'totp_enabled_at',
  'totp_last_step',
  'recovery_codes_left',
  'version',
  'ins_index',
] as const satisfies readonly (keyof StoredUserTable)[];
type SealedFields = Partial<Record<SealedUserColumn, string | null>>;

/** What a sealed value is bound to: its column and its row (a value moved elsewhere does not open). */
function sealContext(column: SealedUserColumn, userId: string): string {
  return `users.${column}:${userId}`;
}

const INS_INDEX_PURPOSE = 'users.ins';

function normalizeInsForIndex(ins: string): string {
  return ins.replace(/\s+/g, '').toUpperCase();
}

/** The blind index of an INS: found by exact match, whatever its spacing or letter case. */
export function insIndex(ins: string): string {
  return blindIndex(dataKeys(), INS_INDEX_PURPOSE, normalizeInsForIndex(ins));
}

/**
 * Every index the INS may be stored under: the active index key's, then (only while
 * `data:rotate-key --index` rebuilds the indexes) each former key's. Lookups match any.
 */
function insIndexes(ins: string): string[] {
  return blindIndexes(dataKeys(), INS_INDEX_PURPOSE, normalizeInsForIndex(ins));
}

/**
 * While an index-key rebuild runs, an account not rebuilt yet holds its INS's index under the
 * former key, which the unique index cannot compare with a new write under the active key: an
 * INS written is refused as taken when another account holds it under a former key. Writers only
 * ever write under the active key, so the unique index covers the rest; and an account is under
 * one key or the other at any instant, so this read and the unique index together never miss it.
 */
async function assertInsFreeUnderFormerKeys(db: Db, userId: string, ins: string): Promise<void> {
  const former = insIndexes(ins).slice(1);
  if (former.length === 0) return;
  const holder = await db
    .selectFrom('users')
    .select('id')
    .where('ins_index', 'in', former)
    .where('id', '!=', userId)
    .executeTakeFirst();
  if (holder) throw new UniqueViolation('users_ins_index_uq');
}

/** `ins_index` matching an INS, under whichever key it is stored (one equality outside a rebuild). */
function insIndexMatch(ins: string) {
  const indexes = insIndexes(ins);
  return (eb: ExpressionBuilder<Database, 'users'>) =>
    indexes.length === 1 ? eb('ins_index', '=', insIndex(ins)) : eb('ins_index', 'in', indexes);
}

/** The sealed form of the sealed columns present in `fields`, and the INS's index with the INS. */
function sealFields(
  userId: string,
  fields: SealedFields,
): Partial<Pick<StoredUserTable, SealedUserColumn | 'ins_index'>> {
  const keys = dataKeys();
  const sealed: Partial<Pick<StoredUserTable, SealedUserColumn | 'ins_index'>> = {};
  for (const column of SEALED_USER_COLUMNS) {
    const value = fields[column];
    if (value === undefined) continue;
    sealed[column] = value === null ? null : seal(keys, sealContext(column, userId), value);
  }
  if (fields.ins !== undefined)
    sealed.ins_index = fields.ins === null ? null : insIndex(fields.ins);
  return sealed;
}

/** Opens a stored value; one written before sealing existed is read as is (sealed at start-up). */
function openValue(column: SealedUserColumn, userId: string, stored: string | null): string | null {
  if (stored === null || !isSealed(stored)) return stored;
  return open(dataKeys(), sealContext(column, userId), stored);
}

const SEXES = ['male', 'female', 'unknown'] as const;

function sexOf(value: string | null): UserTable['sex'] {
  return SEXES.find((sex) => sex === value) ?? null;
}

/** What an account row's sealed fields open from: the stored row, and each field once opened. */
interface SealedState {
  row: StoredUserRow;
  opened: SealedFields;
}
const sealedStates = new WeakMap<UserRow, SealedState>();

/** A sealed field of an account row, opened at its first read (`openUser`). */
function openedField(user: UserRow, column: SealedUserColumn): string | null {
  const state = sealedStates.get(user);
  if (!state) throw new Error(`users.${column}: not an account row`);
  const known = state.opened[column];
  if (known !== undefined) return known;
  return (state.opened[column] = openValue(column, state.row.id, state.row[column]));
}

/**
 * The sealed fields' accessors, one per column, shared by every row (the row's state is in
 * `sealedStates`): rows given the same accessors share their shape, which a closure per row and
 * field would not (four times the cost of building a row, in a loop).
 */
const SEALED_ACCESSORS = new Map<SealedUserColumn, PropertyDescriptor & ThisType<UserRow>>(
  SEALED_USER_COLUMNS.map((column) => [
    column,
    {
      enumerable: true,
      configurable: true,
      get(this: UserRow) {
        const value = openedField(this, column);
        return column === 'sex' ? sexOf(value) : value;
      },
    },
  ]),
);

/**
 * The plain row services see. Its sealed fields are opened when first read, not with the row: a
 * sign-in reads its account by a key and never looks at the INS or the birth traits, and each
 * opening sets up an AES-GCM context (154 µs of a sign-in's 4.4 ms in a CPU profile, for a
 * patient's three: docs/performance.md "Sign-in"). A field stored empty is null at once; the
 * others open at their first read, once. One that does not open (a value moved to another column
 * or account, or sealed with a key no longer configured) throws DataKeyError at every read and
 * never gives a value. A spread of the row reads, so opens, them all.
 */
function openUser(row: StoredUserRow): UserRow {
  const { ins_index: _index, sex: _sex, ...fields } = row;
  // The sealed fields hold their stored value only until their accessor replaces it, below.
  const user: UserRow = { ...fields, sex: null };
  let sealed = false;
  for (const column of SEALED_USER_COLUMNS) {
    const accessor = SEALED_ACCESSORS.get(column);
    if (row[column] === null || !accessor) continue;
    Object.defineProperty(user, column, accessor);
    sealed = true;
  }
  if (sealed) sealedStates.set(user, { row, opened: {} });
  return user;
}

function openFirst(row: StoredUserRow | undefined): UserRow | undefined {
  return row && openUser(row);
}

/** The account's row by one of its unique keys, compiled once per database (`precompiled`). */
const userByEmail = precompiled((db: Db, $: Slots<{ email: string }>) =>
  kept(db.selectFrom('users').select(USER_COLUMNS).where('email', '=', $('email'))),
);
const userByPhone = precompiled((db: Db, $: Slots<{ phone: string }>) =>
  kept(db.selectFrom('users').select(USER_COLUMNS).where('phone', '=', $('phone'))),
);
const userById = precompiled((db: Db, $: Slots<{ id: string }>) =>
  kept(db.selectFrom('users').select(USER_COLUMNS).where('id', '=', $('id'))),
);
const userForUpdate = precompiled((db: Db, $: Slots<{ id: string }>) =>
  kept(
    db
      .selectFrom('users')
      .select(USER_COLUMNS)
      .where('id', '=', $('id'))
      .$if(isPostgres(db), (qb) => qb.forUpdate()),
  ),
);
const userVersionForUpdate = precompiled((db: Db, $: Slots<{ id: string }>) =>
  kept(
    db
      .selectFrom('users')
      .select('version')
      .where('id', '=', $('id'))
      .$if(isPostgres(db), (qb) => qb.forUpdate()),
  ),
);

/** Finds a user by normalised e-mail (unique index). */
export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return openFirst(await userByEmail.first(db, { email }));
}

/** Finds a user by E.164 phone number (indexed). */
export async function findUserByPhone(db: Db, phone: string): Promise<UserRow | undefined> {
  return openFirst(await userByPhone.first(db, { phone }));
}

export async function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  return openFirst(await userById.first(db, { id }));
}

/**
 * The user row, locked until the caller's transaction ends, so a rule spanning several columns
 * sees the final values when two edits run at once (PostgreSQL row lock; a SQLite file has one
 * writer at a time).
 */
export async function findUserForUpdate(db: Db, id: string): Promise<UserRow | undefined> {
  return openFirst(await userForUpdate.first(db, { id }));
}

/**
 * The version of a user's row (raised by the database on every change of it), held until the
 * caller's transaction ends on PostgreSQL (`for update`; SQLite's transactions run one at a time):
 * undefined when the user is gone.
 */
export async function lockUserVersion(db: Db, id: string): Promise<number | undefined> {
  return (await userVersionForUpdate.first(db, { id }))?.version;
}

export async function insertUser(db: Db, user: NewUser): Promise<void> {
  if (user.ins) await assertInsFreeUnderFormerKeys(db, user.id, user.ins);
  await db
    .insertInto('users')
    .values({ ...user, ...sealFields(user.id, user) })
    .execute();
}

export async function updatePasswordHash(
  db: Db,
  id: string,
  passwordHash: string,
  now: number,
): Promise<void> {
  await db
    .updateTable('users')
    .set({ password_hash: passwordHash, updated_at: now })
    .where('id', '=', id)
    .execute();
}

export async function insertConsent(db: Db, consent: ConsentTable): Promise<void> {
  await db.insertInto('consents').values(consent).execute();
}

export async function setPassword(
  db: Db,
  userId: string,
  passwordHash: string,
  now: number,
): Promise<void> {
  await db
    .updateTable('users')
    .set({
      password_hash: passwordHash,
      password_changed_at: now,
      must_create_password: 0,
      updated_at: now,
    })
    .where('id', '=', userId)
    .execute();
}

// Sign-in lookups: each one is on a unique index.

/** Through the INS's blind index (unique): the INS itself is stored sealed. */
export async function findUserByIns(db: Db, ins: string): Promise<UserRow | undefined> {
  const [index, ...former] = insIndexes(ins);
  // One index outside an index-key rebuild: the statement of every sign-in. During a rebuild,
  // the few keys' lookup is built for the occasion.
  if (index !== undefined && former.length === 0) {
    return openFirst(await userByInsIndex.first(db, { index }));
  }
  return openFirst(
    await db.selectFrom('users').select(USER_COLUMNS).where(insIndexMatch(ins)).executeTakeFirst(),
  );
}

const userByInsIndex = precompiled((db: Db, $: Slots<{ index: string }>) =>
  kept(db.selectFrom('users').select(USER_COLUMNS).where('ins_index', '=', $('index'))),
);

export async function findUserByProfessionalId(
  db: Db,
  type: string,
  value: string,
): Promise<UserRow | undefined> {
  return openFirst(await userByProfessionalId.first(db, { type, value }));
}

const userByProfessionalId = precompiled((db: Db, $: Slots<{ type: string; value: string }>) =>
  kept(
    db
      .selectFrom('users')
      .select(USER_COLUMNS)
      .where('professional_id_type', '=', $('type'))
      .where('professional_id', '=', $('value')),
  ),
);

/** The accounts that verified this mobile number (a family may share one), at most `limit`. */
export async function findUsersByVerifiedPhone(
  db: Db,
  phone: string,
  limit: number,
): Promise<UserRow[]> {
  return (await usersByVerifiedPhone.all(db, { phone, limit })).map(openUser);
}

const usersByVerifiedPhone = precompiled((db: Db, $: Slots<{ phone: string; limit: number }>) =>
  db
    .selectFrom('users')
    .select(USER_COLUMNS)
    .where('phone', '=', $('phone'))
    .where('phone_verified_at', 'is not', null)
    .orderBy('created_at')
    .limit($('limit')),
);

// What completing a sign-in stage writes on the user.

export async function markEmailVerified(db: Db, userId: string, now: number): Promise<void> {
  await emailVerified.run(db, { userId, now });
}

const emailVerified = precompiled((db: Db, $: Slots<{ userId: string; now: number }>) =>
  kept(
    db
      .updateTable('users')
      .set({ email_verified_at: $('now'), updated_at: $('now') })
      .where('id', '=', $('userId'))
      .where('email_verified_at', 'is', null),
  ),
);

/** Only the number the code was sent to becomes verified (it may have changed since). */
export async function markPhoneVerified(
  db: Db,
  userId: string,
  phone: string,
  now: number,
): Promise<void> {
  await phoneVerified.run(db, { userId, phone, now });
}

const phoneVerified = precompiled(
  (db: Db, $: Slots<{ userId: string; phone: string; now: number }>) =>
    db
      .updateTable('users')
      .set({ phone_verified_at: $('now'), updated_at: $('now') })
      .where('id', '=', $('userId'))
      .where('phone', '=', $('phone')),
);

/** The terms version the user has accepted (the consent row keeps each acceptance). */
export async function setCguVersion(db: Db, userId: string, version: string, now: number) {
  await db
    .updateTable('users')
    .set({ cgu_version: version, updated_at: now })
    .where('id', '=', userId)
    .execute();
}

// The largest character that sorts after any search key: `[q, q + END)` is a prefix range (the
// keys compare byte by byte on both databases: migration 0026).
const END = '\uffff';
const PROFESSIONAL_ID_TYPES = ['RPPS', 'ADELI', 'FINESS', 'SIRET', 'SIREN', 'DRASS'];

/** The admin search's filters, checked inside the index range that orders the page. */
export interface UserSearchFilters {
  status: UserRow['status'] | undefined;
  role: 'admin' | 'user' | undefined;
  /** Profile; `none` for accounts without one. */
  type: 'patient' | 'professional' | 'none' | undefined;
}

/** Where a page starts: after the last row of the previous one, in the page's own order. */
export interface SearchAfter<K> {
  key: K;
  id: string;
}

const SEARCH_COLUMNS = [
  'id',
  'email',
  'first_name',
  'last_name',
  'profile',
  'status',
  'ins',
  'professional_id',
  'created_at',
  'search_name',
  'phone',
] as const;

/** The search's select, with the filters (checked on the entries of the ordering index). */
function searchQuery(db: Db, { status, role, type }: UserSearchFilters) {
  let q = db.selectFrom('users').select(SEARCH_COLUMNS);
  // The admins and the accounts without a profile (a handful each) are read through their own
  // partial indexes, their status checked on their rows: written as an expression no index
  // serves, else both planners took the status's index and walked every account of it to find
  // them (495–790 ms at a million on SQLite, the event loop held; search-plan.test.ts).
  if (status !== undefined && (role === 'admin' || type === 'none')) {
    q = q.where(sql<string>`${sql.ref('status')} || ''`, '=', status);
  } else if (status !== undefined) q = q.where('status', '=', status);
  // A literal, not a parameter: the planners match it to the admins' partial indexes (0024).
  if (role === 'admin') q = q.where('roles', 'like', sql.lit(ADMIN_ROLE_PATTERN));
  if (role === 'user') q = q.where('roles', 'not like', ADMIN_ROLE_PATTERN);
  if (type === 'none') q = q.where('profile', 'is', null);
  if (type === 'patient' || type === 'professional') q = q.where('profile', '=', type);
  return q;
}

async function searchRows(query: ReturnType<typeof searchQuery>): Promise<UserSearchRow[]> {
  const rows = await query.execute();
  return rows.map((row) => ({ ...row, ins: openValue('ins', row.id, row.ins) }));
}

type SearchRow = Pick<Selectable<StoredUserTable>, (typeof SEARCH_COLUMNS)[number]>;
export type UserSearchRow = Omit<SearchRow, 'ins'> & { ins: string | null };

// The admin search (docs/decisions.md, "Admin search"): every page is one range of one index,
// read in that index's order from the previous page's last row, `limit` rows long — its cost does
// not grow with the table or with the number of matches. Filters are columns of the same index,
// so they are checked on index entries (users_status_created_idx serves a status filter
// without a search). search-plan.test.ts explains each of these statements on both databases.

/** Every account, newest first (created_at desc, id desc): users_created_idx. */
export async function listUsersPage(
  db: Db,
  filters: UserSearchFilters,
  after: SearchAfter<number> | undefined,
  limit: number,
): Promise<UserSearchRow[]> {
  return searchRows(
    searchQuery(db, filters)
      .$if(after !== undefined, (qb) =>
        qb.where((eb) =>
          eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(after?.key ?? 0, after?.id ?? '')),
        ),
      )
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit),
  );
}

/** Accounts whose name key ("last first", normalised) starts with `prefix`: users_name_idx. */
export async function searchUsersByName(
  db: Db,
  prefix: string,
  filters: UserSearchFilters,
  after: SearchAfter<string> | undefined,
  limit: number,
): Promise<UserSearchRow[]> {
  return searchRows(
    searchQuery(db, filters)
      .where((eb) =>
        after === undefined
          ? eb('search_name', '>=', prefix)
          : eb(eb.refTuple('search_name', 'id'), '>', eb.tuple(after.key, after.id)),
      )
      .where('search_name', '<', prefix + END)
      .orderBy('search_name')
      .orderBy('id')
      .limit(limit),
  );
}

/** Accounts whose e-mail (stored lower-case, unique) starts with `prefix`: users_email_search_idx. */
export async function searchUsersByEmail(
  db: Db,
  prefix: string,
  filters: UserSearchFilters,
  after: SearchAfter<string> | undefined,
  limit: number,
): Promise<UserSearchRow[]> {
  return searchRows(
    searchQuery(db, filters)
      .where((eb) =>
        after === undefined ? eb('email', '>=', prefix) : eb('email', '>', after.key),
      )
      .where('email', '<', prefix + END)
      .orderBy('email')
      .limit(limit),
  );
}

/** Accounts with this mobile phone (E.164), by id: users_phone_idx (phone, id). */
export async function searchUsersByPhone(
  db: Db,
  phone: string,
  filters: UserSearchFilters,
  after: SearchAfter<string> | undefined,
  limit: number,
): Promise<UserSearchRow[]> {
  return searchRows(
    searchQuery(db, filters)
      .where('phone', '=', phone)
      .$if(after !== undefined, (qb) => qb.where('id', '>', after?.id ?? ''))
      .orderBy('phone')
      .orderBy('id')
      .limit(limit),
  );
}

/**
 * The accounts holding this INS or professional identifier, matched exactly: each is unique
 * (users_ins_index_uq, users_professional_id_value_uq), so there are a handful at most.
 */
export async function searchUsersByIdentifier(
  db: Db,
  compact: string,
  filters: UserSearchFilters,
): Promise<UserSearchRow[]> {
  const byIns = await searchRows(searchQuery(db, filters).where(insIndexMatch(compact)));
  const byProfessionalId = await searchRows(
    searchQuery(db, filters)
      .where('professional_id_type', 'in', PROFESSIONAL_ID_TYPES)
      .where('professional_id', '=', compact),
  );
  return [...byIns, ...byProfessionalId.filter((r) => !byIns.some((i) => i.id === r.id))];
}

/**
 * `roles` is a JSON array of strings: an admin's holds `"admin"`. Migration 0024's partial indexes
 * are written with this very predicate.
 */
const ADMIN_ROLE_PATTERN = '%"admin"%';

export async function activateUser(db: Db, userId: string, now: number): Promise<void> {
  await setUserStatus(db, userId, 'active', now);
}

/** Sets the account's status (sign-in refuses every status but `active`). */
export async function setUserStatus(
  db: Db,
  userId: string,
  status: UserRow['status'],
  now: number,
): Promise<void> {
  await db.updateTable('users').set({ status, updated_at: now }).where('id', '=', userId).execute();
}

/** Replaces the account's roles. */
export async function setUserRoles(
  db: Db,
  userId: string,
  roles: readonly string[],
  now: number,
): Promise<void> {
  await db
    .updateTable('users')
    .set({ roles: JSON.stringify(roles), updated_at: now })
    .where('id', '=', userId)
    .execute();
}

/** How many active admins there are besides this user (the last admin stays an active admin). */
export async function countOtherActiveAdmins(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('status', '=', 'active')
    .where('roles', 'like', ADMIN_ROLE_PATTERN)
    .where('id', '!=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function deleteUser(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('users').where('id', '=', userId).execute();
}

/** Locks the account: sign-ins answer account_locked until an admin unlocks it. */
export async function lockUser(db: Db, userId: string, now: number): Promise<void> {
  await setUserStatus(db, userId, 'locked', now);
}

/** A new mobile phone replaces the old one, unverified until its code comes back. */
export async function setUnverifiedPhone(
  db: Db,
  userId: string,
  phone: string,
  now: number,
): Promise<void> {
  await db
    .updateTable('users')
    .set({ phone, phone_verified_at: null, updated_at: now })
    .where('id', '=', userId)
    .execute();
}

/** Writes edited person fields (the service decides which ones a profile may change). */
export async function updatePersonFields(db: Db, userId: string, changes: UserUpdate) {
  if (changes.ins) await assertInsFreeUnderFormerKeys(db, userId, changes.ins);
  await db
    .updateTable('users')
    .set({ ...changes, ...sealFields(userId, changes) })
    .where('id', '=', userId)
    .execute();
}

/**
 * Starts an authenticator app's enrolment: its secret (sealed), not yet a factor. Refused (false)
 * when the account already has an app it confirmed — the owner removes it first.
 */
export async function setPendingTotpSecret(
  db: Db,
  userId: string,
  secret: string,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ ...sealFields(userId, { totp_secret: secret }), totp_last_step: null, updated_at: now })
    .where('id', '=', userId)
    .where('totp_enabled_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Confirms the pending authenticator app with the step its first code was accepted for
 * (compare-and-set: a second confirmation of the same enrolment changes nothing, returns false).
 */
export async function enableTotp(
  db: Db,
  userId: string,
  step: number,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ totp_enabled_at: now, totp_last_step: step, updated_at: now })
    .where('id', '=', userId)
    .where('totp_secret', 'is not', null)
    .where('totp_enabled_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Records that a code of `step` was accepted, only if no code of this step or a later one was
 * (compare-and-set in one statement: of parallel submissions of one code, exactly one wins).
 */
export async function claimTotpStep(db: Db, userId: string, step: number): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ totp_last_step: step })
    .where('id', '=', userId)
    .where('totp_enabled_at', 'is not', null)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Removes the authenticator app (confirmed or pending); false when there was none. */
export async function clearTotp(db: Db, userId: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ totp_secret: null, totp_enabled_at: null, totp_last_step: null, updated_at: now })
    .where('id', '=', userId)
    .where('totp_secret', 'is not', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** A new set of recovery codes replaced the account's: `count` unused (in the set's transaction). */
export async function setRecoveryCodesLeft(db: Db, userId: string, count: number): Promise<void> {
  await db
    .updateTable('users')
    .set({ recovery_codes_left: count })
    .where('id', '=', userId)
    .execute();
}

/**
 * One recovery code was used (in the transaction that claimed it): one fewer unused; returns how
 * many are left.
 */
export async function decrementRecoveryCodesLeft(db: Db, userId: string): Promise<number> {
  await db
    .updateTable('users')
    .set((eb) => ({ recovery_codes_left: eb('recovery_codes_left', '-', 1) }))
    .where('id', '=', userId)
    .where('recovery_codes_left', '>', 0)
    .execute();
  const row = await db
    .selectFrom('users')
    .select('recovery_codes_left')
    .where('id', '=', userId)
    .executeTakeFirst();
  return row?.recovery_codes_left ?? 0;
}

/**
 * Seals the values stored in clear before sealing existed (no `v1.` prefix) and fills the INS's
 * blind index, in batches; returns how many accounts changed. Idempotent: a row another node
 * sealed first is left alone (its clear values no longer match).
 */
export async function sealClearPersonFields(db: Db, batchSize = 200): Promise<number> {
  let sealed = 0;
  for (;;) {
    const rows = await db
      .selectFrom('users')
      .select(['id', ...SEALED_USER_COLUMNS])
      .where((eb) =>
        eb.or(
          SEALED_USER_COLUMNS.map((column) =>
            eb.and([eb(column, 'is not', null), eb(column, 'not like', 'v1.%')]),
          ),
        ),
      )
      .orderBy('id')
      .limit(batchSize)
      .execute();
    if (rows.length === 0) return sealed;
    for (const row of rows) {
      const clear: SealedFields = {};
      for (const column of SEALED_USER_COLUMNS) {
        const value = row[column];
        if (value !== null && !isSealed(value)) clear[column] = value;
      }
      await db
        .updateTable('users')
        .set(sealFields(row.id, clear))
        .where('id', '=', row.id)
        .where((eb) =>
          eb.and(
            Object.entries(clear).map(([column, value]) => eb(sealedColumn(column), '=', value)),
          ),
        )
        .execute();
    }
    sealed += rows.length;
  }
}

/** How many sealed values each key id holds (`clear`: values stored before sealing existed). */
export interface SealedKeyCensus {
  byKey: Record<string, number>;
  /** The first value found under each key id: where to look when that key is not configured. */
  firstOf: Record<string, { userId: string; column: SealedUserColumn }>;
}

/** The key id a stored value was sealed with, `clear` for a value from before sealing. */
function keyIdOf(stored: string): string {
  return isSealed(stored) ? (stored.split('.')[1] ?? '') : 'clear';
}

/**
 * Counts the users' sealed values by the key id written in them (read in batches, nothing
 * opened): what a rotation has left to do, and whether every key it needs is configured.
 */
export async function sealedKeyCensus(db: Db, batchSize = 1000): Promise<SealedKeyCensus> {
  const census: SealedKeyCensus = { byKey: {}, firstOf: {} };
  let after = '';
  for (;;) {
    const rows = await db
      .selectFrom('users')
      .select(['id', ...SEALED_USER_COLUMNS])
      .where('id', '>', after)
      .orderBy('id')
      .limit(batchSize)
      .execute();
    for (const row of rows) {
      for (const column of SEALED_USER_COLUMNS) {
        const stored = row[column];
        if (stored === null) continue;
        const keyId = keyIdOf(stored);
        census.byKey[keyId] = (census.byKey[keyId] ?? 0) + 1;
        census.firstOf[keyId] ??= { userId: row.id, column };
      }
    }
    const last = rows.at(-1);
    if (!last || rows.length < batchSize) return census;
    after = last.id;
  }
}

/** What one batch of a rotation did. */
export interface ResealBatch {
  /** The last account the batch looked at: the next batch starts after it (none: done). */
  lastId: string | null;
  /** Values now sealed with the active key. */
  resealed: number;
  /** Accounts a request changed meanwhile: left as the request wrote them, looked at again. */
  conflicts: number;
}

/**
 * Re-seals with the active key, in one short transaction, the values of the next `batchSize`
 * accounts after `afterId` that hold a value under another key. Every value of the batch is opened
 * before anything is written (one that opens with no configured key throws DataKeyError and the
 * batch writes nothing); each account is written only if its values are still the ones read
 * (compare-and-set, and a row lock on PostgreSQL), so an edit made meanwhile is never overwritten.
 */
export async function resealBatch(
  db: Db,
  afterId: string,
  batchSize: number,
): Promise<ResealBatch> {
  const active = dataKeys().keys[0];
  if (!active) throw new Error('no data key');
  const current = `v1.${active.id}.%`;
  return transaction(db, async (trx) => {
    // No other writer between this read and its writes: PostgreSQL locks the rows read, SQLite's
    // transactions hold the file's write lock from their start (db/sqlite-dialect.ts).
    const rows = await trx
      .selectFrom('users')
      .select(['id', ...SEALED_USER_COLUMNS])
      .where('id', '>', afterId)
      .where((eb) =>
        eb.or(
          SEALED_USER_COLUMNS.map((column) =>
            eb.and([eb(column, 'is not', null), eb(column, 'not like', current)]),
          ),
        ),
      )
      .orderBy('id')
      .limit(batchSize)
      .$if(isPostgres(trx), (qb) => qb.forUpdate())
      .execute();
    const plans = rows.map((row) => {
      const stale: SealedFields = {};
      const plain: SealedFields = {};
      for (const column of SEALED_USER_COLUMNS) {
        const stored = row[column];
        if (stored === null || keyIdOf(stored) === active.id) continue;
        stale[column] = stored;
        try {
          plain[column] = openValue(column, row.id, stored);
        } catch (err) {
          const reason = err instanceof Error ? err.message : String(err);
          throw new DataKeyError(`users.${column} of account ${row.id}: ${reason}`);
        }
      }
      return { id: row.id, stale, plain };
    });
    let resealed = 0;
    let conflicts = 0;
    for (const { id, stale, plain } of plans) {
      const result = await trx
        .updateTable('users')
        .set(sealFields(id, plain))
        .where('id', '=', id)
        .where((eb) =>
          eb.and(
            Object.entries(stale).map(([column, value]) => eb(sealedColumn(column), '=', value)),
          ),
        )
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 1) resealed += Object.keys(stale).length;
      else conflicts += 1;
    }
    return { lastId: rows.at(-1)?.id ?? null, resealed, conflicts };
  });
}

/** An account whose INS index is not under the active index key (an index-key rebuild's work). */
export interface StaleInsIndex {
  id: string;
  /** The sealed INS and the index as read: the rebuild writes only if both are unchanged. */
  ins: string;
  insIndex: string | null;
  /** The index under the active key. */
  wanted: string;
}

/**
 * The next `batchSize` accounts holding an INS after `afterId` (by id), and those of them whose
 * index is not the active index key's. Which key an index is under is not written in it: the INS
 * is opened and its index recomputed (a value that does not open names its account).
 */
export async function staleInsIndexes(
  db: Db,
  afterId: string,
  batchSize: number,
): Promise<{ lastId: string | null; seen: number; stale: StaleInsIndex[] }> {
  const rows = await db
    .selectFrom('users')
    .select(['id', 'ins', 'ins_index'])
    .where('id', '>', afterId)
    .where('ins', 'is not', null)
    .orderBy('id')
    .limit(batchSize)
    .execute();
  const stale: StaleInsIndex[] = [];
  for (const row of rows) {
    if (row.ins === null) continue;
    let plain: string | null;
    try {
      plain = openValue('ins', row.id, row.ins);
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      throw new DataKeyError(`users.ins of account ${row.id}: ${reason}`);
    }
    if (plain === null) continue;
    const wanted = insIndex(plain);
    if (row.ins_index !== wanted) {
      stale.push({ id: row.id, ins: row.ins, insIndex: row.ins_index, wanted });
    }
  }
  return { lastId: rows.at(-1)?.id ?? null, seen: rows.length, stale };
}

/**
 * Writes the active key's index of each account in one short transaction, each only if its INS
 * and index are still the ones read (compare-and-set): an INS edited meanwhile was indexed under
 * the active key by its edit and is left alone (a conflict). Another account already holding an
 * index written is a duplicate INS, which no rebuild can settle: DataKeyError naming both, and the
 * batch writes nothing.
 */
export async function writeInsIndexes(
  db: Db,
  stale: readonly StaleInsIndex[],
): Promise<{ rebuilt: number; conflicts: number }> {
  if (stale.length === 0) return { rebuilt: 0, conflicts: 0 };
  return transaction(db, async (trx) => {
    const holders = await trx
      .selectFrom('users')
      .select(['id', 'ins_index'])
      .where(
        'ins_index',
        'in',
        stale.map((s) => s.wanted),
      )
      .execute();
    let rebuilt = 0;
    let conflicts = 0;
    for (const entry of stale) {
      const holder = holders.find((h) => h.ins_index === entry.wanted && h.id !== entry.id);
      const result = holder
        ? undefined
        : await trx
            .updateTable('users')
            .set({ ins_index: entry.wanted })
            .where('id', '=', entry.id)
            .where('ins', '=', entry.ins)
            .where('ins_index', entry.insIndex === null ? 'is' : '=', entry.insIndex)
            .executeTakeFirst();
      if (result && Number(result.numUpdatedRows) === 1) {
        rebuilt += 1;
        continue;
      }
      const still = await trx
        .selectFrom('users')
        .select('id')
        .where('id', '=', entry.id)
        .where('ins', '=', entry.ins)
        .executeTakeFirst();
      if (holder && still) {
        throw new DataKeyError(
          `accounts ${entry.id} and ${holder.id} hold the same INS (one written by a node without the new index key?): settle it, then run again; this batch wrote nothing`,
        );
      }
      conflicts += 1;
    }
    return { rebuilt, conflicts };
  });
}

function sealedColumn(name: string): SealedUserColumn {
  const column = SEALED_USER_COLUMNS.find((c) => c === name);
  if (!column) throw new Error(`not a sealed column: ${name}`);
  return column;
}

/** Remembers the address or number waiting for its code (the current one stays in force). */
export async function setPendingContact(
  db: Db,
  userId: string,
  pending: { pending_email: string } | { pending_phone: string },
) {
  await db.updateTable('users').set(pending).where('id', '=', userId).execute();
}

/** The new e-mail replaces the old one, verified by its code. */
export async function confirmEmail(db: Db, userId: string, email: string, now: number) {
  await db
    .updateTable('users')
    .set({ email, email_verified_at: now, pending_email: null, updated_at: now })
    .where('id', '=', userId)
    .execute();
}

/** The new mobile phone replaces the old one, verified by its SMS code. */
export async function confirmPhone(db: Db, userId: string, phone: string, now: number) {
  await db
    .updateTable('users')
    .set({ phone, phone_verified_at: now, pending_phone: null, updated_at: now })
    .where('id', '=', userId)
    .execute();
}

/** Each acceptance of the terms by a user, oldest first (the person's data export). */
export function consentsOfUser(db: Db, userId: string) {
  return db
    .selectFrom('consents')
    .select(['id', 'version', 'language', 'text_hash', 'accepted_at', 'ip'])
    .where('user_id', '=', userId)
    .orderBy('accepted_at')
    .execute();
}
