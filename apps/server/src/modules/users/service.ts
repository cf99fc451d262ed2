import type { Language } from '@hygie/domain';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/connection.js';
import { lockUntilCommit } from '../../db/connection.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { UserTable } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import { newId } from '../../lib/ids.js';
import {
  countOtherActiveAdmins,
  findUserByEmail,
  insertConsent,
  insertUser,
  setCguVersion,
} from './repository.js';
import { parseRoles } from './present.js';
import { insColumns } from './ins.js';
import { searchKey } from './search-key.js';
import { forgetTrustedDevices } from '../devices/service.js';
import { endSessionsOfUser } from '../sessions/service.js';

/** A person account to create; what is left out starts empty (null). */
export interface NewAccount {
  /** Already normalised (trimmed, lower-case). */
  email: string;
  emailVerified?: boolean;
  /** E.164. */
  phone?: string | null;
  phoneVerified?: boolean;
  /** Null for an invitation: the user creates the password at the first login. */
  passwordHash: string | null;
  /** When the password was set; defaults to now when there is one (tests of expiry move it). */
  passwordChangedAt?: number | null;
  mustCreatePassword?: boolean;
  profile: UserTable['profile'];
  status: UserTable['status'];
  roles?: string[];
  language: Language;
  firstName?: string | null;
  lastName?: string | null;
  birthName?: string | null;
  /** YYYY-MM-DD, 00 for an unknown day or month. */
  birthDate?: string | null;
  birthPlaceInsee?: string | null;
  sex?: UserTable['sex'];
  ins?: string | null;
  firstNameUsed?: string | null;
  lastNameUsed?: string | null;
  professionalId?: { type: string; value: string } | null;
  job?: string | null;
  specialty?: string | null;
  /** The terms version accepted at creation, if any. */
  cguVersion?: string | null;
}

// Other modules reach users through this service, never the repository: lookups and access
// revocation are plain data access, offered here unchanged (they take `db` or the caller's
// transaction).
export {
  activateUser,
  claimTotpStep,
  clearTotp,
  confirmEmail,
  confirmPhone,
  consentsOfUser,
  countOtherActiveAdmins,
  decrementRecoveryCodesLeft,
  deleteUser,
  enableTotp,
  findUserByEmail,
  findUserById,
  findUserForUpdate,
  findUserByIns,
  findUserByProfessionalId,
  findUsersByVerifiedPhone,
  lockUser,
  lockUserVersion,
  markEmailVerified,
  markPhoneVerified,
  listUsersPage,
  searchUsersByEmail,
  searchUsersByIdentifier,
  searchUsersByName,
  searchUsersByPhone,
  sealClearPersonFields,
  setPassword,
  setPendingContact,
  setPendingTotpSecret,
  setRecoveryCodesLeft,
  setUnverifiedPhone,
  setUserRoles,
  setUserStatus,
  updatePasswordHash,
  updatePersonFields,
} from './repository.js';
export type { UserSearchFilters, UserSearchRow } from './repository.js';

/** Serialises every change that could leave the portal without an active admin. */
const ADMINS_LOCK = 'admins';

/**
 * Takes the admins lock until the caller's transaction ends: an admin's act that takes an admin
 * away (lock, disable, demote, delete) and a person deleting their own account are judged one
 * after the other, so two of them at once cannot leave the portal without an active admin.
 */
export function lockAdmins(trx: Db): Promise<void> {
  return lockUntilCommit(trx, ADMINS_LOCK);
}

export const isAdmin = (user: Pick<UserTable, 'roles'>) => parseRoles(user.roles).includes('admin');

/** Under lockAdmins: the last active admin is not taken away (409 last_admin). */
export async function assertNotLastActiveAdmin(
  trx: Db,
  user: Pick<UserTable, 'id' | 'roles' | 'status'>,
): Promise<void> {
  if (
    isAdmin(user) &&
    user.status === 'active' &&
    (await countOtherActiveAdmins(trx, user.id)) === 0
  ) {
    throw new AppError('last_admin');
  }
}

/** Closed accounts: locked for safety or disabled by an admin. Nobody gets in, not even by a reset. */
export function isClosed(user: Pick<UserTable, 'status'>): boolean {
  return user.status === 'locked' || user.status === 'disabled';
}

/**
 * Why this account may not sign in (every way in: password, biometric key), or nothing. Checked
 * after the credential, so that the answer tells nothing to someone without it.
 */
export function assertMaySignIn(user: Pick<UserTable, 'status'>, contactEmail: string): void {
  if (user.status === 'locked') throw new AppError('account_locked', { contactEmail });
  if (user.status === 'disabled') throw new AppError('account_disabled', { contactEmail });
  if (user.status === 'pending_validation') throw new AppError('account_pending_validation');
}

/**
 * Ends every session and forgets every trusted device of a user (password change, reset, lock).
 * A session kept (the one changing the password) stays open but no longer on a trusted device.
 */
export async function revokeAccess(db: Db, userId: string, exceptSessionId?: string) {
  await endSessionsOfUser(db, userId, exceptSessionId);
  await forgetTrustedDevices(db, userId);
}

/** Refuses an e-mail that is already an account's (before the slow work of a sign-up starts). */
export async function assertEmailAvailable(ctx: Pick<AppContext, 'db'>, email: string) {
  if (await findUserByEmail(ctx.db, email)) throw new AppError('email_already_used');
}

/**
 * Creates a person account in the caller's transaction and returns its id: the one place that
 * fills the row (search key, verification times, defaults). A taken e-mail, even one lost in a
 * race after `assertEmailAvailable`, is `email_already_used`; other unique violations (INS,
 * professional identifier) are left to the caller, which knows the field.
 */
export async function createUser(
  ctx: Pick<AppContext, 'clock'>,
  db: Db,
  account: NewAccount,
): Promise<string> {
  const now = ctx.clock.now();
  const id = newId();
  const phone = account.phone ?? null;
  try {
    await insertUser(db, {
      id,
      type: 'person',
      email: account.email,
      email_verified_at: account.emailVerified ? now : null,
      phone,
      phone_verified_at: phone && account.phoneVerified ? now : null,
      password_hash: account.passwordHash,
      password_changed_at:
        account.passwordChangedAt !== undefined
          ? account.passwordChangedAt
          : account.passwordHash
            ? now
            : null,
      must_create_password: account.mustCreatePassword ? 1 : 0,
      profile: account.profile,
      status: account.status,
      roles: JSON.stringify(account.roles ?? []),
      first_name: account.firstName ?? null,
      last_name: account.lastName ?? null,
      birth_name: account.birthName ?? null,
      language: account.language,
      created_at: now,
      updated_at: now,
      birth_date: account.birthDate ?? null,
      birth_place_insee: account.birthPlaceInsee ?? null,
      sex: account.sex ?? null,
      ...insColumns(account.ins ?? null),
      first_name_used: account.firstNameUsed ?? null,
      last_name_used: account.lastNameUsed ?? null,
      professional_id_type: account.professionalId?.type ?? null,
      professional_id: account.professionalId?.value ?? null,
      job: account.job ?? null,
      specialty: account.specialty ?? null,
      cgu_version: account.cguVersion ?? null,
      search_name: searchKey(account.firstName, account.lastName),
    });
  } catch (err) {
    if (isUniqueViolation(err, 'users_email_uq')) throw new AppError('email_already_used');
    throw err;
  }
  return id;
}

/**
 * Records that the user accepted a terms version (which text — its hash and language —, when,
 * from where) and makes it the version in
 * force for the account, in the caller's transaction.
 */
export async function recordConsent(
  ctx: Pick<AppContext, 'clock'>,
  db: Db,
  consent: { userId: string; version: string; hash: string; language: string; ip: string | null },
): Promise<void> {
  await insertConsent(db, {
    id: newId(),
    user_id: consent.userId,
    version: consent.version,
    accepted_at: ctx.clock.now(),
    ip: consent.ip,
    text_hash: consent.hash,
    language: consent.language,
  });
  await setCguVersion(db, consent.userId, consent.version, ctx.clock.now());
}
