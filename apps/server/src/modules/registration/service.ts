import type { Brand, Language, RegistrationInput, registrationInputSchema } from '@hygie/domain';
import { normalizePassword, parseBirthDate } from '@hygie/domain';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import { isUniqueViolation } from '../../db/errors.js';
import { AppError } from '../../lib/app-error.js';
import { enqueueMessage } from '../../messaging/outbox.js';
import { recordAudit } from '../audit/service.js';
import { assertAcceptablePassword } from '../password/service.js';
import { queueEmailVerificationCode } from '../verification/service.js';
import { Throttle } from '../throttle/service.js';
import { queueIdentifierClaimedNotice } from '../users/notices.js';
import {
  assertEmailAvailable,
  createUser,
  findUserByIns,
  findUserByProfessionalId,
  recordConsent,
} from '../users/service.js';
import { termsReadInForce } from '../consent/service.js';

export type Registration = z.output<typeof registrationInputSchema>;
export type { RegistrationInput };

const HOUR = 60 * 60_000;
/** Sign-ups per address per hour: "e-mail already used" is an answer the spec wants, so it is rate limited. */
export const REGISTRATIONS_PER_IP_PER_HOUR = 20;

/**
 * Creates the account, records the terms accepted (the version and hash of the text shown), and queues the e-mail verification code — one
 * transaction. Patients start active; professionals wait for an admin to validate their identity.
 * Every attempt counts against the address's hourly sign-up limit, successful or not.
 */
export async function register(
  ctx: AppContext,
  input: Registration,
  meta: { ip: string; language: Language; brand: Brand },
): Promise<{ email: string; status: 'active' | 'pending_validation' }> {
  const attempts = await new Throttle(ctx.db, ctx.clock).fail(
    `register:${meta.ip}`,
    () => null,
    HOUR,
  );
  if (attempts > REGISTRATIONS_PER_IP_PER_HOUR) throw new AppError('too_many_requests');
  assertAcceptablePassword(input.password, {
    email: input.email,
    first_name: input.firstName,
    last_name: input.lastName,
  });
  await assertEmailAvailable(ctx, input.email);

  const hash = await ctx.passwords.hash(normalizePassword(input.password));
  const status = input.type === 'professional' ? 'pending_validation' : 'active';
  try {
    await ctx.db.transaction().execute(async (trx) => {
      const id = await createUser(ctx, trx, {
        email: input.email,
        phone: input.phone,
        passwordHash: hash,
        profile: input.type,
        status,
        language: meta.language,
        firstName: input.firstName,
        lastName: input.lastName,
        birthName: input.birthName ?? null,
        birthDate: parseBirthDate(input.birthDate)?.iso ?? null,
        birthPlaceInsee: input.birthPlaceInsee,
        sex: input.sex,
        ...(input.type === 'patient'
          ? {
              ins: input.socialSecurityNumber ?? null,
              firstNameUsed: input.firstNameUsed ?? null,
              lastNameUsed: input.lastNameUsed ?? null,
            }
          : {
              professionalId: input.identifier,
              job: input.job,
              specialty: input.specialty ?? null,
            }),
      });
      // The exact text the person was shown and ticked; another one in force meanwhile is
      // `terms_changed` and nothing is created (the form shows the new text to accept).
      const terms = await termsReadInForce(ctx, trx, {
        version: input.cguVersion,
        hash: input.cguHash,
      });
      await recordConsent(ctx, trx, { userId: id, ...terms, ip: meta.ip });
      await queueEmailVerificationCode(ctx, trx, { id, email: input.email }, meta);
      await recordAudit(trx, ctx.clock, {
        action: 'registered',
        actorId: id,
        targetId: id,
        ip: meta.ip,
        details: { profile: input.type },
      });
    });
  } catch (err) {
    const owner = isUniqueViolation(err) ? await identifierOwner(ctx, input) : undefined;
    // A taken e-mail (a race past the check above) is the answer the spec wants.
    if (!owner) throw isUniqueViolation(err) ? new AppError('email_already_used') : err;
    await identifierAlreadyInUse(ctx, input, owner, meta);
  }
  // Taken or free, the same answer: the INS or RPPS of an account is not told to whoever types it.
  return { email: input.email, status };
}

/** The account holding the INS or professional identifier of a sign-up, if any. */
function identifierOwner(ctx: AppContext, input: Registration) {
  if (input.type === 'patient') {
    return input.socialSecurityNumber
      ? findUserByIns(ctx.db, input.socialSecurityNumber)
      : undefined;
  }
  return findUserByProfessionalId(ctx.db, input.identifier.type, input.identifier.value);
}

/**
 * A sign-up gave an identifier that is already an account's: no account is created, the answer is
 * that of a free one (no enumeration), the address typed is told why nothing comes (with the way
 * to sign in), and the owner is told someone entered their identifier.
 */
async function identifierAlreadyInUse(
  ctx: AppContext,
  input: Registration,
  owner: { id: string; email: string; language: Language },
  meta: { ip: string; language: Language; brand: Brand },
) {
  await ctx.db.transaction().execute(async (trx) => {
    await enqueueMessage(trx, ctx.clock, {
      channel: 'email',
      recipient: input.email,
      template: 'identifier_in_use',
      language: meta.language,
      brand: meta.brand,
      params: {
        loginUrl: new URL('/security/login', ctx.config.publicUrl).href,
        contactEmail: ctx.config.contactEmail,
      },
    });
    await queueIdentifierClaimedNotice(ctx, trx, owner, meta.brand);
    await recordAudit(trx, ctx.clock, {
      action: 'registration_identifier_in_use',
      targetId: owner.id,
      ip: meta.ip,
      details: { profile: input.type },
    });
  });
}
