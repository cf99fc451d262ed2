import type { Brand, CodeSent, Language, Profile, profileUpdateSchema } from '@hygie/domain';
import { transaction } from '../../db/transaction.js';
import { parseBirthDate } from '@hygie/domain';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { UserRow, UserUpdate } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import { endOtherAccess } from '../access/service.js';
import { recordAudit } from '../audit/service.js';
import { queueCode, verifyCode } from '../codes/service.js';
import { assertAcceptableNewPassword, queuePasswordChangedNotice } from '../password/service.js';
import { queueIdentifierClaimedNotice, queueSecurityNotice } from '../users/notices.js';
import { checkCurrentPassword } from '../step-up/service.js';
import { Throttle } from '../throttle/service.js';
import { insColumns } from '../users/ins.js';
import { searchKey } from '../users/search-key.js';
import {
  assertEmailAvailable,
  confirmEmail,
  confirmPhone,
  findUserById,
  findUserByIns,
  findUserForUpdate,
  findUserByProfessionalId,
  setPassword,
  setPendingContact,
  updatePersonFields,
} from '../users/service.js';
import { presentProfile } from './present.js';

export type ProfileChanges = z.output<typeof profileUpdateSchema>;

/** Who asks, from where, in which language and brand (messages and audit). */
export interface RequestMeta {
  ip: string | null;
  language: Language;
  brand: Brand;
}

async function signedInUser(ctx: AppContext, userId: string): Promise<UserRow> {
  const user = await findUserById(ctx.db, userId);
  if (!user) throw new AppError('not_logged_in');
  return user;
}

export async function getProfile(ctx: AppContext, userId: string): Promise<Profile> {
  return presentProfile(await signedInUser(ctx, userId));
}

/** The person fields a profile may change: patient extras for patients, professional ones for professionals. */
function personChanges(user: UserRow, b: ProfileChanges, now: number): UserUpdate {
  const patient = user.profile === 'patient';
  const professional = user.profile === 'professional';
  const changes: UserUpdate = { updated_at: now };
  if (b.firstName !== undefined) changes.first_name = b.firstName;
  if (b.lastName !== undefined) changes.last_name = b.lastName;
  if (b.birthName !== undefined) changes.birth_name = b.birthName;
  if (b.birthDate !== undefined) changes.birth_date = parseBirthDate(b.birthDate)?.iso ?? null;
  if (b.birthPlaceInsee !== undefined) changes.birth_place_insee = b.birthPlaceInsee;
  if (b.sex !== undefined) changes.sex = b.sex;
  if (b.language !== undefined) changes.language = b.language;
  if (b.gender !== undefined) changes.gender = b.gender;
  if (b.address !== undefined) Object.assign(changes, addressColumns(b.address));
  if (patient && b.ins !== undefined) Object.assign(changes, insColumns(b.ins));
  if (patient && b.firstNameUsed !== undefined) changes.first_name_used = b.firstNameUsed;
  if (patient && b.lastNameUsed !== undefined) changes.last_name_used = b.lastNameUsed;
  if (patient && b.parentIns !== undefined) changes.parent_ins = b.parentIns;
  if (professional && b.identifier !== undefined) {
    changes.professional_id_type = b.identifier?.type ?? null;
    changes.professional_id = b.identifier?.value ?? null;
  }
  if (professional && b.job !== undefined) changes.job = b.job;
  if (professional && b.specialty !== undefined) changes.specialty = b.specialty;
  if (professional && b.category !== undefined) changes.category = b.category;
  changes.search_name = searchKey(
    changes.first_name !== undefined ? changes.first_name : user.first_name,
    changes.last_name !== undefined ? changes.last_name : user.last_name,
  );
  return changes;
}

/** The columns of a postal address (all null to remove it). */
function addressColumns(address: ProfileChanges['address']): UserUpdate {
  return {
    address_line1: address?.line1 ?? null,
    address_line2: address?.line2 ?? null,
    address_postal_code: address?.postalCode ?? null,
    address_city: address?.city ?? null,
    address_country: address?.country ?? null,
  };
}

/**
 * Refuses a parent's INS equal to the patient's own, as it will be once `changes` are saved
 * (either may change in the same edit, or be the stored one).
 */
function assertParentInsNotOwn(user: UserRow, changes: UserUpdate): void {
  const own = changes.ins !== undefined ? changes.ins : user.ins;
  const parent = changes.parent_ins !== undefined ? changes.parent_ins : user.parent_ins;
  if (own === null || parent === null || own !== parent) return;
  const path = changes.parent_ins !== undefined ? 'parentIns' : 'ins';
  throw new AppError('validation_error', { fields: [{ path, message: 'parent_ins_same' }] });
}

/**
 * The identity an admin checked when validating a professional (the INS "traits stricts" and the
 * professional identifier), with the profile field each one is edited in. Once validated, it
 * changes only through an admin (audited); patients' identity is declared, never checked here.
 */
const CHECKED_IDENTITY = [
  ['first_name', 'firstName'],
  ['last_name', 'lastName'],
  ['birth_name', 'birthName'],
  ['birth_date', 'birthDate'],
  ['birth_place_insee', 'birthPlaceInsee'],
  ['sex', 'sex'],
  ['professional_id_type', 'identifier.type'],
  ['professional_id', 'identifier.value'],
] as const satisfies readonly (readonly [keyof UserRow, string])[];

function identityChecked(user: UserRow): boolean {
  return user.profile === 'professional' && user.status !== 'pending_validation';
}

/** The checked-identity fields `changes` really changes, as profile paths. */
function changedIdentity(user: UserRow, changes: UserUpdate): string[] {
  return CHECKED_IDENTITY.filter(
    ([column]) => changes[column] !== undefined && changes[column] !== user[column],
  ).map(([, path]) => path);
}

/** Refuses, field by field, a change to a validated professional's checked identity. */
function assertIdentityUnchanged(user: UserRow, changes: UserUpdate): void {
  if (!identityChecked(user)) return;
  const changed = changedIdentity(user, changes);
  if (changed.length === 0) return;
  throw new AppError('validation_error', {
    fields: changed.map((path) => ({ path, message: 'identity_locked' })),
  });
}

/** A change of person fields: who makes it, how it is audited, and what may refuse it. */
interface PersonEdit {
  action: 'profile_updated' | 'identity_corrected';
  actorId: string;
  ip: string | null;
  /** Refuses the edit (a locked identity): judged on the locked row. */
  check?: (user: UserRow, changes: UserUpdate) => void;
  /** The fields the audit entry names. */
  fields: (user: UserRow, changes: UserUpdate) => string[];
}

/** The INS or professional identifier an edit gave is already another account's. */
class IdentifierTaken extends Error {
  constructor(
    readonly user: UserRow,
    readonly changes: UserUpdate,
  ) {
    super('identifier taken');
  }
}

/**
 * Saves person fields with their audit entry, in one transaction on the locked user row: the
 * changes (and the search key derived from both names) are computed from the row as it is when
 * the edit writes, so two edits at once never leave a search key of names the account no longer
 * has. Throws IdentifierTaken when the INS or professional identifier is already someone's
 * (nothing is saved then).
 */
async function savePersonFields(
  ctx: AppContext,
  userId: string,
  input: ProfileChanges,
  edit: PersonEdit,
): Promise<void> {
  await transaction(ctx.db, async (trx) => {
    const user = await findUserForUpdate(trx, userId);
    if (!user) throw new AppError('not_found');
    const changes = personChanges(user, input, ctx.clock.now());
    edit.check?.(user, changes);
    assertParentInsNotOwn(user, changes);
    try {
      await updatePersonFields(trx, user.id, changes);
    } catch (err) {
      throw isUniqueViolation(err) ? new IdentifierTaken(user, changes) : err;
    }
    await recordAudit(trx, ctx.clock, {
      action: edit.action,
      actorId: edit.actorId,
      targetId: user.id,
      ip: edit.ip,
      details: { fields: edit.fields(user, changes) },
    });
  });
}

/** Edits my person fields; an INS or professional identifier already someone's is refused on its field. */
export async function updateProfile(
  ctx: AppContext,
  userId: string,
  input: ProfileChanges,
  meta: RequestMeta,
): Promise<Profile> {
  const user = await signedInUser(ctx, userId);
  // Refused before anything is counted or written; judged again on the locked row.
  assertIdentityUnchanged(user, personChanges(user, input, ctx.clock.now()));
  const throttle = new Throttle(ctx.db, ctx.clock);
  await throttle.checkIdentifierProbe(user.id);
  try {
    await savePersonFields(ctx, user.id, input, {
      action: 'profile_updated',
      actorId: user.id,
      ip: meta.ip,
      check: assertIdentityUnchanged,
      fields: (_user, changes) =>
        Object.keys(changes).filter((k) => k !== 'updated_at' && k !== 'search_name'),
    });
  } catch (err) {
    if (!(err instanceof IdentifierTaken)) throw err;
    // Signed in and audited, the user is told; slowed, and the identifier's owner is told too.
    await throttle.failIdentifierProbe(user.id);
    await tellIdentifierOwner(ctx, err.user, err.changes, meta);
    const path = user.profile === 'patient' ? 'ins' : 'identifier.value';
    throw new AppError('validation_error', { fields: [{ path, message: 'identifier_taken' }] });
  }
  return getProfile(ctx, user.id);
}

/** A user's profile as an admin sees it before correcting the identity. */
export async function identityOf(ctx: AppContext, userId: string): Promise<Profile> {
  const user = await findUserById(ctx.db, userId);
  if (!user) throw new AppError('not_found');
  return presentProfile(user);
}

/**
 * An admin corrects a user's identity (the only way once a professional is validated): the same
 * fields and rules as the profile, audited with the admin as actor and the fields changed.
 */
export async function correctIdentity(
  ctx: AppContext,
  userId: string,
  input: ProfileChanges,
  actor: { userId: string; ip: string | null },
): Promise<Profile> {
  try {
    await savePersonFields(ctx, userId, input, {
      action: 'identity_corrected',
      actorId: actor.userId,
      ip: actor.ip,
      fields: changedIdentity,
    });
  } catch (err) {
    if (!(err instanceof IdentifierTaken)) throw err;
    throw new AppError('validation_error', {
      fields: [{ path: 'identifier.value', message: 'identifier_taken' }],
    });
  }
  return identityOf(ctx, userId);
}

/** The owner of the INS or professional identifier a profile edit tried to take is told. */
async function tellIdentifierOwner(
  ctx: AppContext,
  user: UserRow,
  changes: UserUpdate,
  meta: RequestMeta,
): Promise<void> {
  const owner =
    user.profile === 'patient'
      ? changes.ins
        ? await findUserByIns(ctx.db, changes.ins)
        : undefined
      : changes.professional_id_type && changes.professional_id
        ? await findUserByProfessionalId(
            ctx.db,
            changes.professional_id_type,
            changes.professional_id,
          )
        : undefined;
  if (!owner || owner.id === user.id) return;
  await queueIdentifierClaimedNotice(ctx, ctx.db, owner, meta.brand);
}

/**
 * The two contact channels a user changes the same way: a code goes to the new value, which
 * stays pending (the current one in force) until the code comes back; then the new value is in
 * force and verified, and the account's e-mail is told (for an e-mail change, the OLD address:
 * that is where an intruder's change is noticed), and for a phone change the old number too.
 */
export type ContactKind = 'email' | 'phone';

const CONTACTS = {
  email: {
    purpose: 'email_change',
    channel: 'email',
    pendingOf: (user: UserRow) => user.pending_email,
    pending: (value: string) => ({ pending_email: value }),
    confirm: confirmEmail,
    event: 'email_changed',
    noticeParams: (value: string) => ({ newEmail: value }),
    oldNumberOf: () => null,
  },
  phone: {
    purpose: 'phone_change',
    channel: 'sms',
    pendingOf: (user: UserRow) => user.pending_phone,
    pending: (value: string) => ({ pending_phone: value }),
    confirm: confirmPhone,
    event: 'phone_changed',
    noticeParams: (value: string) => ({ newPhone: value }),
    // The number being replaced, when it was proven: an intruder's change is noticed there too.
    oldNumberOf: (user: UserRow) => (user.phone_verified_at === null ? null : user.phone),
  },
} as const;

/** Sends a code to the new e-mail or mobile phone (the current password is required). */
export async function requestContactChange(
  ctx: AppContext,
  userId: string,
  kind: ContactKind,
  input: { value: string; currentPassword: string },
  meta: RequestMeta,
): Promise<CodeSent> {
  const contact = CONTACTS[kind];
  const user = await signedInUser(ctx, userId);
  await checkCurrentPassword(ctx, user, input.currentPassword);
  if (kind === 'email') await assertEmailAvailable(ctx, input.value);
  return transaction(ctx.db, async (trx) => {
    await setPendingContact(trx, user.id, contact.pending(input.value));
    return queueCode(ctx, trx, {
      userId: user.id,
      purpose: contact.purpose,
      channel: contact.channel,
      destination: input.value,
      template: 'verification_code',
      language: meta.language,
      brand: meta.brand,
    });
  });
}

/** The code makes the pending e-mail or phone mine; the account's (old) e-mail is told. */
export async function confirmContactChange(
  ctx: AppContext,
  userId: string,
  kind: ContactKind,
  code: string,
  meta: RequestMeta,
): Promise<Profile> {
  const contact = CONTACTS[kind];
  const user = await signedInUser(ctx, userId);
  const pending = contact.pendingOf(user);
  if (!pending) throw new AppError('code_invalid');
  const { destination } = await verifyCode(ctx, user.id, contact.purpose, code);
  if (destination !== pending) throw new AppError('code_invalid');
  try {
    await transaction(ctx.db, async (trx) => {
      await contact.confirm(trx, user.id, destination, ctx.clock.now());
      await queueSecurityNotice(
        ctx,
        trx,
        user,
        contact.event,
        meta,
        contact.noticeParams(destination),
        contact.oldNumberOf(user),
      );
      await recordAudit(trx, ctx.clock, {
        action: contact.event,
        actorId: user.id,
        targetId: user.id,
        ip: meta.ip,
      });
    });
  } catch (err) {
    // Someone else took the address between the request and the code.
    if (kind === 'email' && isUniqueViolation(err)) throw new AppError('email_already_used');
    throw err;
  }
  return identityOf(ctx, userId);
}

/**
 * Changes my password (the current one is required); my other sessions and every trusted device
 * end, this session stays open.
 */
export async function changePassword(
  ctx: AppContext,
  session: { userId: string; sessionId: string },
  input: { currentPassword: string; password: string },
  meta: RequestMeta,
): Promise<void> {
  const user = await signedInUser(ctx, session.userId);
  await checkCurrentPassword(ctx, user, input.currentPassword);
  const password = await assertAcceptableNewPassword(ctx, input.password, user);
  const hash = await ctx.passwords.hash(password);
  await transaction(ctx.db, async (trx) => {
    await setPassword(trx, user.id, hash, ctx.clock.now());
    await endOtherAccess(ctx, trx, user.id, session.sessionId);
    await queuePasswordChangedNotice(ctx, trx, user, meta);
    await recordAudit(trx, ctx.clock, {
      action: 'password_changed',
      actorId: user.id,
      targetId: user.id,
      ip: meta.ip,
    });
  });
}
