import type { Brand, CodeSent, Language, Profile, profileUpdateSchema } from '@hygie/domain';
import { normalizePassword, parseBirthDate } from '@hygie/domain';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { UserRow, UserUpdate } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import { recordAudit } from '../audit/service.js';
import { queueCode, verifyCode } from '../codes/service.js';
import { assertAcceptablePassword } from '../password/service.js';
import { queueSecurityNotice } from '../users/notices.js';
import { searchKey } from '../users/search-key.js';
import {
  assertEmailAvailable,
  confirmEmail,
  confirmPhone,
  findUserById,
  revokeAccess,
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

/** Sensitive changes need the current password (security.md); a wrong one changes nothing. */
async function checkCurrentPassword(ctx: AppContext, user: UserRow, password: string) {
  if (!(await ctx.passwords.verify(user.password_hash, normalizePassword(password)))) {
    throw new AppError('wrong_current_password');
  }
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
  if (patient && b.ins !== undefined) changes.ins = b.ins;
  if (patient && b.firstNameUsed !== undefined) changes.first_name_used = b.firstNameUsed;
  if (patient && b.lastNameUsed !== undefined) changes.last_name_used = b.lastNameUsed;
  if (professional && b.identifier !== undefined) {
    changes.professional_id_type = b.identifier?.type ?? null;
    changes.professional_id = b.identifier?.value ?? null;
  }
  if (professional && b.job !== undefined) changes.job = b.job;
  if (professional && b.specialty !== undefined) changes.specialty = b.specialty;
  changes.search_name = searchKey(
    changes.first_name !== undefined ? changes.first_name : user.first_name,
    changes.last_name !== undefined ? changes.last_name : user.last_name,
  );
  return changes;
}

/** Edits my person fields; an INS or professional identifier already someone's is refused on its field. */
export async function updateProfile(
  ctx: AppContext,
  userId: string,
  input: ProfileChanges,
  meta: RequestMeta,
): Promise<Profile> {
  const user = await signedInUser(ctx, userId);
  const changes = personChanges(user, input, ctx.clock.now());
  try {
    await ctx.db.transaction().execute(async (trx) => {
      await updatePersonFields(trx, user.id, changes);
      await recordAudit(trx, ctx.clock, {
        action: 'profile_updated',
        actorId: user.id,
        targetId: user.id,
        ip: meta.ip,
        details: {
          fields: Object.keys(changes).filter((k) => k !== 'updated_at' && k !== 'search_name'),
        },
      });
    });
  } catch (err) {
    if (isUniqueViolation(err)) {
      const path = user.profile === 'patient' ? 'ins' : 'identifier.value';
      throw new AppError('validation_error', { fields: [{ path, message: 'identifier_taken' }] });
    }
    throw err;
  }
  return getProfile(ctx, user.id);
}

/** A code goes to the new address; the old one stays in force until the code is entered. */
export async function requestEmailChange(
  ctx: AppContext,
  userId: string,
  input: { email: string; currentPassword: string },
  meta: RequestMeta,
): Promise<CodeSent> {
  const user = await signedInUser(ctx, userId);
  await checkCurrentPassword(ctx, user, input.currentPassword);
  const { email } = input;
  await assertEmailAvailable(ctx, email);
  return ctx.db.transaction().execute(async (trx) => {
    await setPendingContact(trx, user.id, { pending_email: email });
    return queueCode(ctx, trx, {
      userId: user.id,
      purpose: 'email_change',
      channel: 'email',
      destination: email,
      template: 'verification_code',
      language: meta.language,
      brand: meta.brand,
    });
  });
}

/** The code makes the pending address mine; the old address is told (an intruder is noticed there). */
export async function confirmEmailChange(
  ctx: AppContext,
  userId: string,
  code: string,
  meta: RequestMeta,
): Promise<Profile> {
  const user = await signedInUser(ctx, userId);
  if (!user.pending_email) throw new AppError('code_invalid');
  const { destination } = await verifyCode(ctx, user.id, 'email_change', code);
  if (destination !== user.pending_email) throw new AppError('code_invalid');
  try {
    await ctx.db.transaction().execute(async (trx) => {
      await confirmEmail(trx, user.id, destination, ctx.clock.now());
      // The notice goes to the OLD address: that is where an intruder's change is noticed.
      await queueSecurityNotice(ctx, trx, user, 'email_changed', meta, { newEmail: destination });
      await recordAudit(trx, ctx.clock, {
        action: 'email_changed',
        actorId: user.id,
        targetId: user.id,
        ip: meta.ip,
      });
    });
  } catch (err) {
    // Someone else took the address between the request and the code.
    if (isUniqueViolation(err)) throw new AppError('email_already_used');
    throw err;
  }
  return presentProfile((await findUserById(ctx.db, user.id)) ?? user);
}

/** An SMS code goes to the new number; the old one stays in force until the code is entered. */
export async function requestPhoneChange(
  ctx: AppContext,
  userId: string,
  input: { phone: string; currentPassword: string },
  meta: RequestMeta,
): Promise<CodeSent> {
  const user = await signedInUser(ctx, userId);
  await checkCurrentPassword(ctx, user, input.currentPassword);
  const { phone } = input;
  return ctx.db.transaction().execute(async (trx) => {
    await setPendingContact(trx, user.id, { pending_phone: phone });
    return queueCode(ctx, trx, {
      userId: user.id,
      purpose: 'phone_change',
      channel: 'sms',
      destination: phone,
      template: 'verification_code',
      language: meta.language,
      brand: meta.brand,
    });
  });
}

/** The SMS code makes the pending number mine; the account's e-mail is told. */
export async function confirmPhoneChange(
  ctx: AppContext,
  userId: string,
  code: string,
  meta: RequestMeta,
): Promise<Profile> {
  const user = await signedInUser(ctx, userId);
  if (!user.pending_phone) throw new AppError('code_invalid');
  const { destination } = await verifyCode(ctx, user.id, 'phone_change', code);
  if (destination !== user.pending_phone) throw new AppError('code_invalid');
  await ctx.db.transaction().execute(async (trx) => {
    await confirmPhone(trx, user.id, destination, ctx.clock.now());
    await queueSecurityNotice(ctx, trx, user, 'phone_changed', meta, { newPhone: destination });
    await recordAudit(trx, ctx.clock, {
      action: 'phone_changed',
      actorId: user.id,
      targetId: user.id,
      ip: meta.ip,
    });
  });
  return presentProfile((await findUserById(ctx.db, user.id)) ?? user);
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
  const password = normalizePassword(input.password);
  assertAcceptablePassword(password, user);
  if (await ctx.passwords.verify(user.password_hash, password)) {
    throw new AppError('password_must_differ');
  }
  const hash = await ctx.passwords.hash(password);
  await ctx.db.transaction().execute(async (trx) => {
    await setPassword(trx, user.id, hash, ctx.clock.now());
    await revokeAccess(trx, user.id, session.sessionId);
    await queueSecurityNotice(ctx, trx, user, 'password_changed', meta);
    await recordAudit(trx, ctx.clock, {
      action: 'password_changed',
      actorId: user.id,
      targetId: user.id,
      ip: meta.ip,
    });
  });
}
