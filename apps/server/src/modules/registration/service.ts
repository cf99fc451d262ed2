import type { Brand, Language, RegistrationInput, registrationInputSchema } from '@hygie/domain';
import { transaction } from '../../db/transaction.js';
import { normalizePassword, parseBirthDate, professionalIdentifierSchema } from '@hygie/domain';
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
import type { PendingRegistration } from '../identity-providers/service.js';
import { linkRegisteredIdentity, pendingRegistration } from '../identity-providers/service.js';

export type Registration = z.output<typeof registrationInputSchema>;
export type { RegistrationInput };

const HOUR = 60 * 60_000;
/** Sign-ups per address per hour: "e-mail already used" is an answer the spec wants, so it is rate limited. */
export const REGISTRATIONS_PER_IP_PER_HOUR = 20;

/**
 * Creates the account, records the terms accepted (the version and hash of the text shown), and queues the e-mail verification code — one
 * transaction. Patients start active; professionals wait for an admin to validate their identity.
 * Every attempt counts against the address's hourly sign-up limit, successful or not.
 *
 * From a provider's pending identity (`fromIdentityProvider`, the sealed cookie `pendingLink`):
 * the fields the provider asserted are the provider's, whatever the body says; the account is
 * created linked to the identity; a professional whose RPPS Pro Santé Connect asserted starts
 * active (the provider is the evidence, audited); an INS or RPPS already an account's is refused
 * on its field, nothing created (the person proved the identity at the provider).
 */
export async function register(
  ctx: AppContext,
  input: Registration,
  meta: { ip: string; language: Language; brand: Brand; pendingLink?: string | null },
): Promise<{ email: string; status: 'active' | 'pending_validation' }> {
  const attempts = await new Throttle(ctx.db, ctx.clock).fail(
    `register:${meta.ip}`,
    () => null,
    HOUR,
  );
  if (attempts > REGISTRATIONS_PER_IP_PER_HOUR) throw new AppError('too_many_requests');
  const fromProvider = await pendingIdentityOf(ctx, input, meta.pendingLink);
  const person = fromProvider ? withAsserted(input, fromProvider) : input;
  assertAcceptablePassword(person.password, {
    email: person.email,
    first_name: person.firstName,
    last_name: person.lastName,
  });
  await assertEmailAvailable(ctx, person.email);

  const hash = await ctx.passwords.hash(normalizePassword(person.password));
  const validated =
    person.type === 'professional' && fromProvider?.view.asserted.identifier != null;
  const status = person.type === 'professional' && !validated ? 'pending_validation' : 'active';
  try {
    await transaction(ctx.db, async (trx) => {
      const id = await createUser(ctx, trx, {
        email: person.email,
        phone: person.phone,
        passwordHash: hash,
        profile: person.type,
        status,
        language: meta.language,
        firstName: person.firstName,
        lastName: person.lastName,
        birthName: person.birthName ?? null,
        birthDate: parseBirthDate(person.birthDate)?.iso ?? null,
        birthPlaceInsee: person.birthPlaceInsee,
        sex: person.sex,
        ...(person.type === 'patient'
          ? {
              ins: person.socialSecurityNumber ?? null,
              firstNameUsed: person.firstNameUsed ?? null,
              lastNameUsed: person.lastNameUsed ?? null,
            }
          : {
              professionalId: person.identifier,
              job: person.job,
              specialty: person.specialty ?? null,
            }),
      });
      // The exact text the person was shown and ticked; another one in force meanwhile is
      // `terms_changed` and nothing is created (the form shows the new text to accept).
      const terms = await termsReadInForce(ctx, trx, {
        version: person.cguVersion,
        hash: person.cguHash,
      });
      await recordConsent(ctx, trx, { userId: id, ...terms, ip: meta.ip });
      await queueEmailVerificationCode(ctx, trx, { id, email: person.email }, meta);
      await recordAudit(trx, ctx.clock, {
        action: 'registered',
        actorId: id,
        targetId: id,
        ip: meta.ip,
        details: {
          profile: person.type,
          ...(fromProvider ? { provider: fromProvider.pending.provider } : {}),
        },
      });
      if (fromProvider) {
        await linkRegisteredIdentity(ctx, trx, fromProvider.pending, id, {
          ip: meta.ip,
          validated,
        });
      }
    });
  } catch (err) {
    const owner = isUniqueViolation(err) ? await identifierOwner(ctx, person) : undefined;
    // The provider's identity linked meanwhile (a parallel registration or link): not pending.
    if (!owner && fromProvider && isUniqueViolation(err)) {
      if (!(await pendingRegistration(ctx, meta.pendingLink))) {
        throw new AppError('identity_provider_sign_in_invalid');
      }
    }
    // A taken e-mail (a race past the check above) is the answer the spec wants.
    if (!owner) throw isUniqueViolation(err) ? new AppError('email_already_used') : err;
    await identifierAlreadyInUse(ctx, person, owner, meta, { tellAddress: !fromProvider });
    if (fromProvider) {
      const path = person.type === 'patient' ? 'socialSecurityNumber' : 'identifier.value';
      throw new AppError('validation_error', { fields: [{ path, message: 'identifier_taken' }] });
    }
  }
  // Taken or free, the same answer: the INS or RPPS of an account is not told to whoever types it.
  return { email: person.email, status };
}

/**
 * The pending identity a registration names (`fromIdentityProvider`): it must wait in this
 * browser, unexpired, from that provider and for that kind of account — else
 * `identity_provider_sign_in_invalid` and nothing is created.
 */
async function pendingIdentityOf(
  ctx: AppContext,
  input: Registration,
  sealed: string | null | undefined,
): Promise<PendingRegistration | null> {
  if (input.fromIdentityProvider === undefined) return null;
  const found = await pendingRegistration(ctx, sealed);
  if (
    !found ||
    found.pending.provider !== input.fromIdentityProvider ||
    found.view.profile !== input.type
  ) {
    throw new AppError('identity_provider_sign_in_invalid');
  }
  return found;
}

/** The sign-up with the provider's asserted fields in place of the body's. */
function withAsserted(input: Registration, { view }: PendingRegistration): Registration {
  const asserted = view.asserted;
  const person = {
    ...input,
    firstName: asserted.firstName ?? input.firstName,
    lastName: asserted.lastName ?? input.lastName,
    birthName: asserted.birthName ?? input.birthName,
    birthDate: asserted.birthDate ?? input.birthDate,
    sex: asserted.sex ?? input.sex,
    birthPlaceInsee: asserted.birthPlaceInsee ?? input.birthPlaceInsee,
  };
  if (person.type === 'patient') {
    return { ...person, lastNameUsed: asserted.lastNameUsed ?? person.lastNameUsed };
  }
  const identifier = professionalIdentifierSchema.safeParse(asserted.identifier);
  return {
    ...person,
    identifier: identifier.success ? identifier.data : person.identifier,
    job: asserted.job ?? person.job,
  };
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
  { tellAddress }: { tellAddress: boolean },
) {
  await transaction(ctx.db, async (trx) => {
    // A sign-up from a provider's identity is told on its field instead.
    if (tellAddress) {
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
    }
    await queueIdentifierClaimedNotice(ctx, trx, owner, meta.brand);
    await recordAudit(trx, ctx.clock, {
      action: 'registration_identifier_in_use',
      targetId: owner.id,
      ip: meta.ip,
      details: { profile: input.type },
    });
  });
}
