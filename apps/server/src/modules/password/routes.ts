import { createHash } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Brand, Language } from '@hygie/domain';
import {
  checkPassword,
  codeSentSchema,
  CODES,
  currentUserSchema,
  errorEnvelopeSchema,
  forgotPasswordInputSchema,
  forgotPasswordVerifyInputSchema,
  normalizePassword,
  okSchema,
  passwordRenewInputSchema,
  passwordResetInputSchema,
  resetTokenSchema,
} from '@hygie/domain';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/connection.js';
import type { UserRow } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import { enqueueMessage } from '../../messaging/outbox.js';
import { recordAudit } from '../audit/service.js';
import { findByUsername } from '../auth/service.js';
import { finishStage, passwordCreationStage, passwordExpiryStage } from '../auth/service.js';
import { replyWithProgress, requestMeta } from '../auth/respond.js';
import { issueCode, verifyCode } from '../codes/service.js';
import { consumeLink, issueLink, peekLink } from '../links/service.js';
import { queueSecurityNotice } from '../users/notices.js';
import type { RouteDeps } from '../route-deps.js';
import { findUserById } from '../users/repository.js';
import { revokeAccess, setPassword } from '../users/mutations.js';

const errors = {
  400: errorEnvelopeSchema,
  401: errorEnvelopeSchema,
  403: errorEnvelopeSchema,
  429: errorEnvelopeSchema,
};

/** Refuses a new password that breaks the rule for this user (personal information included). */
export function assertAcceptablePassword(
  password: string,
  user: Pick<UserRow, 'email' | 'first_name' | 'last_name'>,
) {
  const problems = checkPassword(normalizePassword(password), {
    email: user.email,
    names: [user.first_name, user.last_name].filter((n): n is string => !!n),
  });
  if (problems.includes('contains_personal_info')) {
    throw new AppError('validation_error', {
      fields: [{ path: 'password', message: 'password_personal_info' }],
    });
  }
  if (problems.includes('too_common')) throw new AppError('password_too_common');
  if (problems.length > 0) throw new AppError('password_too_weak');
}

/** Queues the "your password was changed — not you? lock your account" notice. */
export function queuePasswordChangedNotice(
  ctx: AppContext,
  trx: Db,
  user: Pick<UserRow, 'id' | 'email'>,
  language: Language,
  brand: Brand,
): Promise<void> {
  return queueSecurityNotice(ctx, trx, user, 'password_changed', { language, brand });
}

/** Password renewal (sign-in stage), forgotten password (by e-mail or SMS code), reset. */
export const passwordRoutes: FastifyPluginAsyncZod<RouteDeps> = async (
  app,
  { ctx, cookies, requireSession, nudgeOutbox },
) => {
  app.post(
    '/api/password/renew',
    {
      schema: {
        tags: ['password'],
        summary: 'Set a new password when it expired or must be created',
        body: passwordRenewInputSchema,
        response: { 200: currentUserSchema, ...errors },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, [
        'password_expired',
        'password_creation_required',
      ]);
      const user = await findUserById(ctx.db, session.user_id);
      if (!user) throw new AppError('not_logged_in');
      const password = normalizePassword(request.body.password);
      assertAcceptablePassword(password, user);
      if (user.password_hash && (await ctx.passwords.verify(user.password_hash, password))) {
        throw new AppError('password_must_differ');
      }
      const hash = await ctx.passwords.hash(password);
      const stage =
        session.stage === 'password_expired' ? passwordExpiryStage : passwordCreationStage;
      const { progress } = await finishStage(
        ctx,
        { ...requestMeta(request), userId: user.id, sessionId: session.id },
        stage,
        { passwordHash: hash, action: 'password_renewed' },
      );
      return replyWithProgress(ctx, cookies, request, reply, progress);
    },
  );

  app.post(
    '/api/password/forgot',
    {
      schema: {
        tags: ['password'],
        summary: 'Send a reset code by e-mail or SMS (same answer for unknown accounts)',
        body: forgotPasswordInputSchema,
        response: { 200: codeSentSchema, ...errors },
      },
    },
    async (request) => {
      const { username, channel } = request.body;
      // One cooldown per name typed, known account or not, so the answers cannot tell them apart.
      const key = `forgot:${channel}:${createHash('sha256').update(username.trim().toLowerCase()).digest('hex')}`;
      const now = ctx.clock.now();
      const last = await ctx.db
        .selectFrom('throttles')
        .select('window_start')
        .where('key', '=', key)
        .executeTakeFirst();
      const wait = last
        ? Math.ceil((last.window_start + CODES.resendCooldownSeconds * 1000 - now) / 1000)
        : 0;
      if (wait > 0)
        throw new AppError('wait_before_retry', { seconds: wait }, { 'retry-after': String(wait) });
      await ctx.db
        .insertInto('throttles')
        .values({ key, failures: 0, window_start: now, blocked_until: null })
        .onConflict((oc) => oc.column('key').doUpdateSet({ window_start: now }))
        .execute();

      const user = await findByUsername(ctx.db, username);
      const destination =
        channel === 'sms' ? (user?.phone_verified_at ? user.phone : null) : (user?.email ?? null);
      if (user && destination && user.status !== 'locked') {
        await ctx.db
          .transaction()
          .execute(async (trx) => {
            const code = await issueCode(
              ctx,
              trx,
              user.id,
              channel === 'sms' ? 'reset_sms' : 'reset_email',
              destination,
            );
            await enqueueMessage(trx, ctx.clock, {
              channel,
              recipient: destination,
              template: 'password_reset_code',
              language: request.language,
              brand: request.brand,
              params: { code },
            });
          })
          .catch((err: unknown) => {
            // The account's own cooldown must not show through: the name's cooldown above is the answer.
            if (!(err instanceof AppError && err.code === 'wait_before_retry')) throw err;
          });
        nudgeOutbox();
      }
      return { destination: '', retryAfterSeconds: CODES.resendCooldownSeconds };
    },
  );

  app.post(
    '/api/password/forgot/verify',
    {
      schema: {
        tags: ['password'],
        summary: 'Check the reset code; returns a short-lived reset token',
        body: forgotPasswordVerifyInputSchema,
        response: { 200: resetTokenSchema, ...errors },
      },
    },
    async (request) => {
      const { username, channel, code } = request.body;
      const user = await findByUsername(ctx.db, username);
      if (!user) throw new AppError('code_invalid');
      await verifyCode(ctx, user.id, channel === 'sms' ? 'reset_sms' : 'reset_email', code);
      const resetToken = await issueLink(ctx, ctx.db, user.id, 'password_reset');
      return { resetToken };
    },
  );

  app.post(
    '/api/password/reset',
    {
      schema: {
        tags: ['password'],
        summary: 'Set the new password; ends every session and trusted device',
        body: passwordResetInputSchema,
        response: { 200: okSchema, ...errors },
      },
    },
    async (request) => {
      const link = await peekLink(ctx, request.body.resetToken, 'password_reset');
      const user = await findUserById(ctx.db, link.userId);
      if (!user) throw new AppError('link_expired');
      const password = normalizePassword(request.body.password);
      assertAcceptablePassword(password, user);
      const hash = await ctx.passwords.hash(password);
      await ctx.db.transaction().execute(async (trx) => {
        await consumeLink(ctx, trx, link.id);
        await setPassword(trx, user.id, hash, ctx.clock.now());
        // A reset proves one factor only: every session ends, and the next sign-in asks for the second.
        await revokeAccess(trx, user.id);
        await trx.deleteFrom('throttles').where('key', '=', `login:user:${user.id}`).execute();
        await queuePasswordChangedNotice(ctx, trx, user, request.language, request.brand);
        await recordAudit(trx, ctx.clock, {
          action: 'password_reset',
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
