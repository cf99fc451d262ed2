import type { Brand, Language, RegistrationInput, registrationInputSchema } from '@hygie/domain';
import { normalizePassword, parseBirthDate } from '@hygie/domain';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import { isUniqueViolation } from '../../db/errors.js';
import { AppError } from '../../lib/app-error.js';
import { newId } from '../../lib/ids.js';
import { enqueueMessage } from '../../messaging/outbox.js';
import { recordAudit } from '../audit/service.js';
import { issueCode } from '../codes/service.js';
import { assertAcceptablePassword } from '../password/routes.js';
import { loadSettings } from '../settings/service.js';
import { verifyLink } from '../verification/routes.js';
import { searchKey } from '../users/search-key.js';

export type Registration = z.output<typeof registrationInputSchema>;
export type { RegistrationInput };

/**
 * Creates the account, records the terms accepted, and queues the e-mail verification code — one
 * transaction. Patients start active; professionals wait for an admin to validate their identity.
 */
export async function register(
  ctx: AppContext,
  input: Registration,
  meta: { ip: string | null; language: Language; brand: Brand },
): Promise<{ email: string; status: 'active' | 'pending_validation' }> {
  assertAcceptablePassword(input.password, {
    email: input.email,
    first_name: input.firstName,
    last_name: input.lastName,
  });
  const exists = await ctx.db
    .selectFrom('users')
    .select('id')
    .where('email', '=', input.email)
    .executeTakeFirst();
  if (exists) throw new AppError('email_already_used');

  const hash = await ctx.passwords.hash(normalizePassword(input.password));
  const settings = await loadSettings(ctx);
  const now = ctx.clock.now();
  const id = newId();
  const status = input.type === 'professional' ? 'pending_validation' : 'active';
  try {
    await ctx.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('users')
        .values({
          id,
          type: 'person',
          email: input.email,
          email_verified_at: null,
          phone: input.phone,
          phone_verified_at: null,
          password_hash: hash,
          password_changed_at: now,
          must_create_password: 0,
          profile: input.type,
          status,
          roles: '[]',
          first_name: input.firstName,
          last_name: input.lastName,
          birth_name: input.birthName ?? null,
          language: meta.language,
          created_at: now,
          updated_at: now,
          birth_date: parseBirthDate(input.birthDate)?.iso ?? null,
          birth_place_insee: input.birthPlaceInsee,
          sex: input.sex,
          ins: input.type === 'patient' ? (input.socialSecurityNumber ?? null) : null,
          ins_oid: null,
          first_name_used: input.type === 'patient' ? (input.firstNameUsed ?? null) : null,
          last_name_used: input.type === 'patient' ? (input.lastNameUsed ?? null) : null,
          professional_id_type: input.type === 'professional' ? input.identifier.type : null,
          professional_id: input.type === 'professional' ? input.identifier.value : null,
          job: input.type === 'professional' ? input.job : null,
          specialty: input.type === 'professional' ? (input.specialty ?? null) : null,
          cgu_version: settings.CGU_VERSION,
          search_name: searchKey(input.firstName, input.lastName),
        })
        .execute();
      await trx
        .insertInto('consents')
        .values({
          id: newId(),
          user_id: id,
          version: settings.CGU_VERSION,
          accepted_at: now,
          ip: meta.ip,
        })
        .execute();
      const code = await issueCode(ctx, trx, id, 'email_verification', input.email);
      await enqueueMessage(trx, ctx.clock, {
        channel: 'email',
        recipient: input.email,
        template: 'verification_code',
        language: meta.language,
        brand: meta.brand,
        params: { code, link: verifyLink(ctx.config.publicUrl, input.email, code) },
      });
      await recordAudit(trx, ctx.clock, {
        action: 'registered',
        actorId: id,
        targetId: id,
        ip: meta.ip,
        details: { profile: input.type },
      });
    });
  } catch (err) {
    // Two sign-ups raced on one address, or an identifier is already someone's.
    if (isUniqueViolation(err, 'users_email_uq')) throw new AppError('email_already_used');
    if (isUniqueViolation(err)) {
      throw new AppError('validation_error', {
        fields: [
          {
            path: input.type === 'patient' ? 'socialSecurityNumber' : 'identifier.value',
            message: 'identifier_taken',
          },
        ],
      });
    }
    throw err;
  }
  return { email: input.email, status };
}
