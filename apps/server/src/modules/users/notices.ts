import type { Brand, Language } from '@hygie/domain';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/connection.js';
import type { UserRow } from '../../db/schema.js';
import { enqueueMessage } from '../../messaging/outbox.js';
import type { TemplateName } from '../../messaging/templates.js';
import { issueLink } from '../links/service.js';

/**
 * Queues a "this happened on your account — not you? lock it" e-mail (security.md: every sign-in
 * and every sensitive change sends one), with a fresh single-use lock link, in the caller's transaction.
 */
export async function queueSecurityNotice(
  ctx: AppContext,
  trx: Db,
  user: Pick<UserRow, 'id' | 'email'>,
  template: Extract<
    TemplateName,
    | 'sign_in_notice'
    | 'password_changed'
    | 'email_changed'
    | 'phone_changed'
    | 'biometric_added'
    | 'identity_linked'
    | 'identity_unlinked'
    | 'totp_enabled'
    | 'totp_removed'
    | 'recovery_codes_generated'
    | 'recovery_code_used'
  >,
  request: { language: Language; brand: Brand },
  params: Record<string, string> = {},
  /** A mobile number told as well, by SMS (the old number of a phone change). */
  alsoToPhone: string | null = null,
): Promise<void> {
  // The link and its messages sent together (links/service.ts issueLink).
  await issueLink(ctx, trx, user.id, 'lock_account', undefined, (token) => {
    const lockUrl = new URL('/security/lock-account', ctx.config.publicUrl);
    lockUrl.searchParams.set('email', user.email);
    lockUrl.searchParams.set('code', token);
    const message = {
      template,
      language: request.language,
      brand: request.brand,
      params: {
        at: noticeAt(ctx),
        lockUrl: lockUrl.href,
        ...params,
      },
    };
    return Promise.all([
      enqueueMessage(trx, ctx.clock, { channel: 'email', recipient: user.email, ...message }),
      alsoToPhone
        ? enqueueMessage(trx, ctx.clock, { channel: 'sms', recipient: alsoToPhone, ...message })
        : undefined,
    ]);
  });
}

/** "Someone entered your health identifier (INS, RPPS) for another account", to its owner. */
export async function queueIdentifierClaimedNotice(
  ctx: AppContext,
  trx: Db,
  owner: Pick<UserRow, 'email' | 'language'>,
  brand: Brand,
): Promise<void> {
  await enqueueMessage(trx, ctx.clock, {
    channel: 'email',
    recipient: owner.email,
    template: 'identifier_claimed',
    language: owner.language,
    brand,
    params: { at: noticeAt(ctx), contactEmail: ctx.config.contactEmail },
  });
}

/** The moment a notice tells (epoch milliseconds): written in words, in the configured time zone, when sent. */
function noticeAt(ctx: Pick<AppContext, 'clock'>): string {
  return String(ctx.clock.now());
}
