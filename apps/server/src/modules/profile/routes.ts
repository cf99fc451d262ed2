import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  changeVerifyInputSchema,
  codeSentSchema,
  CODES,
  emailChangeInputSchema,
  errorEnvelopeSchema,
  maskEmail,
  maskPhone,
  normalizePassword,
  okSchema,
  parseBirthDate,
  passwordChangeInputSchema,
  phoneChangeRequestSchema,
  profileSchema,
  profileUpdateSchema,
} from '@hygie/domain';
import type { FastifyRequest } from 'fastify';
import type { UserRow, UserUpdate } from '../../db/schema.js';
import { isUniqueViolation } from '../../db/errors.js';
import { AppError } from '../../lib/app-error.js';
import { enqueueMessage } from '../../messaging/outbox.js';
import { recordAudit } from '../audit/service.js';
import { issueCode, verifyCode } from '../codes/service.js';
import { assertAcceptablePassword } from '../password/routes.js';
import type { RouteDeps } from '../route-deps.js';
import { findUserById } from '../users/repository.js';
import { revokeAccess, setPassword } from '../users/mutations.js';
import { queueSecurityNotice } from '../users/notices.js';
import { searchKey } from '../users/search-key.js';
import { presentProfile } from './present.js';

const errors = {
  400: errorEnvelopeSchema,
  401: errorEnvelopeSchema,
  403: errorEnvelopeSchema,
  409: errorEnvelopeSchema,
  429: errorEnvelopeSchema,
};

/** My profile: person fields, e-mail and phone changes confirmed by code, password change. */
export const profileRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, deps) => {
  const { ctx, requireSession, nudgeOutbox } = deps;

  async function currentUser(
    request: FastifyRequest,
  ): Promise<{ user: UserRow; sessionId: string }> {
    const session = await requireSession(request);
    const user = await findUserById(ctx.db, session.user_id);
    if (!user) throw new AppError('not_logged_in');
    return { user, sessionId: session.id };
  }

  /** Sensitive changes need the current password (security.md); a wrong one changes nothing. */
  async function checkCurrentPassword(user: UserRow, password: string) {
    if (!(await ctx.passwords.verify(user.password_hash, normalizePassword(password)))) {
      throw new AppError('wrong_current_password');
    }
  }

  app.get(
    '/api/profile',
    {
      schema: {
        tags: ['profile'],
        summary: 'My profile',
        response: { 200: profileSchema, ...errors },
      },
    },
    async (request) => presentProfile((await currentUser(request)).user),
  );

  app.patch(
    '/api/profile',
    {
      schema: {
        tags: ['profile'],
        summary: 'Edit my person fields',
        body: profileUpdateSchema,
        response: { 200: profileSchema, ...errors },
      },
    },
    async (request) => {
      const { user } = await currentUser(request);
      const b = request.body;
      const now = ctx.clock.now();
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
      try {
        await ctx.db.transaction().execute(async (trx) => {
          await trx.updateTable('users').set(changes).where('id', '=', user.id).execute();
          await recordAudit(trx, ctx.clock, {
            action: 'profile_updated',
            actorId: user.id,
            targetId: user.id,
            ip: request.ip,
            details: {
              fields: Object.keys(changes).filter((k) => k !== 'updated_at' && k !== 'search_name'),
            },
          });
        });
      } catch (err) {
        if (isUniqueViolation(err)) {
          throw new AppError('validation_error', {
            fields: [{ path: patient ? 'ins' : 'identifier.value', message: 'identifier_taken' }],
          });
        }
        throw err;
      }
      const updated = await findUserById(ctx.db, user.id);
      if (!updated) throw new AppError('not_logged_in');
      return presentProfile(updated);
    },
  );

  app.post(
    '/api/profile/email',
    {
      schema: {
        tags: ['profile'],
        summary:
          'Change my e-mail: a code goes to the new address, which replaces the old once verified',
        body: emailChangeInputSchema,
        response: { 200: codeSentSchema, ...errors },
      },
    },
    async (request) => {
      const { user } = await currentUser(request);
      await checkCurrentPassword(user, request.body.currentPassword);
      const email = request.body.email;
      const taken = await ctx.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', email)
        .executeTakeFirst();
      if (taken) throw new AppError('email_already_used');
      await ctx.db.transaction().execute(async (trx) => {
        await trx
          .updateTable('users')
          .set({ pending_email: email })
          .where('id', '=', user.id)
          .execute();
        const code = await issueCode(ctx, trx, user.id, 'email_change', email);
        await enqueueMessage(trx, ctx.clock, {
          channel: 'email',
          recipient: email,
          template: 'verification_code',
          language: request.language,
          brand: request.brand,
          params: { code },
        });
      });
      nudgeOutbox();
      return { destination: maskEmail(email), retryAfterSeconds: CODES.resendCooldownSeconds };
    },
  );

  app.post(
    '/api/profile/email/verify',
    {
      schema: {
        tags: ['profile'],
        summary: 'Confirm the new e-mail with its code',
        body: changeVerifyInputSchema,
        response: { 200: profileSchema, ...errors },
      },
    },
    async (request) => {
      const { user } = await currentUser(request);
      if (!user.pending_email) throw new AppError('code_invalid');
      const { destination } = await verifyCode(ctx, user.id, 'email_change', request.body.code);
      if (destination !== user.pending_email) throw new AppError('code_invalid');
      const now = ctx.clock.now();
      try {
        await ctx.db.transaction().execute(async (trx) => {
          await trx
            .updateTable('users')
            .set({
              email: destination,
              email_verified_at: now,
              pending_email: null,
              updated_at: now,
            })
            .where('id', '=', user.id)
            .execute();
          // The notice goes to the OLD address: that is where an intruder's change is noticed.
          await queueSecurityNotice(ctx, trx, user, 'email_changed', request, {
            newEmail: destination,
          });
          await recordAudit(trx, ctx.clock, {
            action: 'email_changed',
            actorId: user.id,
            targetId: user.id,
            ip: request.ip,
          });
        });
      } catch (err) {
        if (isUniqueViolation(err)) {
          throw new AppError('email_already_used');
        }
        throw err;
      }
      nudgeOutbox();
      const updated = await findUserById(ctx.db, user.id);
      return presentProfile(updated ?? user);
    },
  );

  app.post(
    '/api/profile/phone',
    {
      schema: {
        tags: ['profile'],
        summary:
          'Change my mobile phone: an SMS code confirms the new number before it replaces the old',
        body: phoneChangeRequestSchema,
        response: { 200: codeSentSchema, ...errors },
      },
    },
    async (request) => {
      const { user } = await currentUser(request);
      await checkCurrentPassword(user, request.body.currentPassword);
      const phone = request.body.phone;
      await ctx.db.transaction().execute(async (trx) => {
        await trx
          .updateTable('users')
          .set({ pending_phone: phone })
          .where('id', '=', user.id)
          .execute();
        const code = await issueCode(ctx, trx, user.id, 'phone_change', phone);
        await enqueueMessage(trx, ctx.clock, {
          channel: 'sms',
          recipient: phone,
          template: 'verification_code',
          language: request.language,
          brand: request.brand,
          params: { code },
        });
      });
      nudgeOutbox();
      return { destination: maskPhone(phone), retryAfterSeconds: CODES.resendCooldownSeconds };
    },
  );

  app.post(
    '/api/profile/phone/verify',
    {
      schema: {
        tags: ['profile'],
        summary: 'Confirm the new mobile phone with its SMS code',
        body: changeVerifyInputSchema,
        response: { 200: profileSchema, ...errors },
      },
    },
    async (request) => {
      const { user } = await currentUser(request);
      if (!user.pending_phone) throw new AppError('code_invalid');
      const { destination } = await verifyCode(ctx, user.id, 'phone_change', request.body.code);
      if (destination !== user.pending_phone) throw new AppError('code_invalid');
      const now = ctx.clock.now();
      await ctx.db.transaction().execute(async (trx) => {
        await trx
          .updateTable('users')
          .set({ phone: destination, phone_verified_at: now, pending_phone: null, updated_at: now })
          .where('id', '=', user.id)
          .execute();
        await queueSecurityNotice(ctx, trx, user, 'phone_changed', request, {
          newPhone: destination,
        });
        await recordAudit(trx, ctx.clock, {
          action: 'phone_changed',
          actorId: user.id,
          targetId: user.id,
          ip: request.ip,
        });
      });
      nudgeOutbox();
      const updated = await findUserById(ctx.db, user.id);
      return presentProfile(updated ?? user);
    },
  );

  app.post(
    '/api/profile/password',
    {
      schema: {
        tags: ['profile'],
        summary:
          'Change my password (the current one is required); ends my other sessions and trusted devices',
        body: passwordChangeInputSchema,
        response: { 200: okSchema, ...errors },
      },
    },
    async (request) => {
      const { user, sessionId } = await currentUser(request);
      await checkCurrentPassword(user, request.body.currentPassword);
      const password = normalizePassword(request.body.password);
      assertAcceptablePassword(password, user);
      if (await ctx.passwords.verify(user.password_hash, password))
        throw new AppError('password_must_differ');
      const hash = await ctx.passwords.hash(password);
      await ctx.db.transaction().execute(async (trx) => {
        await setPassword(trx, user.id, hash, ctx.clock.now());
        await revokeAccess(trx, user.id, sessionId);
        await trx
          .updateTable('sessions')
          .set({ trusted_device_id: null })
          .where('id', '=', sessionId)
          .execute();
        await queueSecurityNotice(ctx, trx, user, 'password_changed', request);
        await recordAudit(trx, ctx.clock, {
          action: 'password_changed',
          actorId: user.id,
          targetId: user.id,
          ip: request.ip,
        });
      });
      nudgeOutbox();
      return { ok: true as const };
    },
  );
};
