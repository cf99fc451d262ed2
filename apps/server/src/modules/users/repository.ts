import type { Db } from '../../db/connection.js';
import { isPostgres } from '../../db/connection.js';
import type { ConsentTable, NewUser, UserRow, UserUpdate } from '../../db/schema.js';

/** Finds a user by normalised e-mail (unique index). */
export function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

/** Finds a user by E.164 phone number (indexed). */
export function findUserByPhone(db: Db, phone: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('phone', '=', phone).executeTakeFirst();
}

export function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * The user row, locked until the caller's transaction ends, so a rule spanning several columns
 * sees the final values when two edits run at once (PostgreSQL row lock; a SQLite file has one
 * writer at a time).
 */
export function findUserForUpdate(db: Db, id: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', id)
    .$if(isPostgres(db), (qb) => qb.forUpdate())
    .executeTakeFirst();
}

export async function insertUser(db: Db, user: NewUser): Promise<void> {
  await db.insertInto('users').values(user).execute();
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

export function findUserByIns(db: Db, ins: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('ins', '=', ins).executeTakeFirst();
}

export function findUserByProfessionalId(
  db: Db,
  type: string,
  value: string,
): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('professional_id_type', '=', type)
    .where('professional_id', '=', value)
    .executeTakeFirst();
}

/** The accounts that verified this mobile number (a family may share one), at most `limit`. */
export function findUsersByVerifiedPhone(db: Db, phone: string, limit: number): Promise<UserRow[]> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('phone', '=', phone)
    .where('phone_verified_at', 'is not', null)
    .orderBy('created_at')
    .limit(limit)
    .execute();
}

// What completing a sign-in stage writes on the user.

export async function markEmailVerified(db: Db, userId: string, now: number): Promise<void> {
  await db
    .updateTable('users')
    .set({ email_verified_at: now, updated_at: now })
    .where('id', '=', userId)
    .where('email_verified_at', 'is', null)
    .execute();
}

/** Only the number the code was sent to becomes verified (it may have changed since). */
export async function markPhoneVerified(
  db: Db,
  userId: string,
  phone: string,
  now: number,
): Promise<void> {
  await db
    .updateTable('users')
    .set({ phone_verified_at: now, updated_at: now })
    .where('id', '=', userId)
    .where('phone', '=', phone)
    .execute();
}

/** The terms version the user has accepted (the consent row keeps each acceptance). */
export async function setCguVersion(db: Db, userId: string, version: string, now: number) {
  await db
    .updateTable('users')
    .set({ cgu_version: version, updated_at: now })
    .where('id', '=', userId)
    .execute();
}

// The largest character that sorts after any search key: `[q, q + END)` is a prefix range.
const END = '\uffff';
const PROFESSIONAL_ID_TYPES = ['RPPS', 'ADELI', 'FINESS', 'SIRET', 'SIREN', 'DRASS'];

export interface UserSearch {
  /** Normalised search key (lower case, no accents): a prefix of the e-mail or the name. */
  term: string;
  /** The query without spaces: an INS or a professional identifier, matched exactly. */
  compact: string;
  /** The query as an E.164 phone number, when it looks like one. */
  phone: string | null;
  status: UserRow['status'] | undefined;
  role: 'admin' | 'user' | undefined;
  /** Profile; `none` for accounts without one. */
  type: 'patient' | 'professional' | 'none' | undefined;
  /** The last account of the previous page (keyset: newest first, then by id). */
  after: { createdAt: number; id: string } | undefined;
  limit: number;
}

/**
 * The admin search, newest accounts first. Every branch is an index range or equality: email,
 * search_name, ins, (type, id), phone (search-plan.test.ts checks the plans).
 */
export function searchUsers(db: Db, search: UserSearch) {
  const { term, compact, phone, status, role, type, after } = search;
  return db
    .selectFrom('users')
    .select([
      'id',
      'email',
      'first_name',
      'last_name',
      'profile',
      'status',
      'ins',
      'professional_id',
      'created_at',
    ])
    .$if(term !== '', (qb) =>
      qb.where((eb) =>
        eb.or([
          eb.and([eb('email', '>=', term), eb('email', '<', term + END)]),
          eb.and([eb('search_name', '>=', term), eb('search_name', '<', term + END)]),
          eb('ins', '=', compact.toUpperCase()),
          eb.and([
            eb('professional_id_type', 'in', PROFESSIONAL_ID_TYPES),
            eb('professional_id', '=', compact),
          ]),
          ...(phone ? [eb('phone', '=', phone)] : []),
        ]),
      ),
    )
    .$if(status !== undefined, (qb) => qb.where('status', '=', status ?? 'active'))
    .$if(role === 'admin', (qb) => qb.where('roles', 'like', ADMIN_ROLE_PATTERN))
    .$if(role === 'user', (qb) => qb.where('roles', 'not like', ADMIN_ROLE_PATTERN))
    .$if(type === 'none', (qb) => qb.where('profile', 'is', null))
    .$if(type === 'patient' || type === 'professional', (qb) =>
      qb.where('profile', '=', type === 'patient' ? 'patient' : 'professional'),
    )
    .$if(after !== undefined, (qb) =>
      qb.where((eb) =>
        eb.or([
          eb('created_at', '<', after?.createdAt ?? 0),
          eb.and([eb('created_at', '=', after?.createdAt ?? 0), eb('id', '>', after?.id ?? '')]),
        ]),
      ),
    )
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(search.limit)
    .execute();
}

/** `roles` is a JSON array of strings: an admin's holds `"admin"`. */
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
  await db.updateTable('users').set(changes).where('id', '=', userId).execute();
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
