import type { Brand, Language } from '@hygie/domain';
import { transaction } from '../../db/transaction.js';
import { normalizeEmail } from '@hygie/domain';
import type { AppContext } from '../../context.js';
import { AppError } from '../../lib/app-error.js';
import { enqueueMessage } from '../../messaging/outbox.js';
import { recordAudit } from '../audit/service.js';
import { consumeLink, peekLink } from '../links/service.js';
import { endAllAccess } from '../access/service.js';
import { findUserById, lockUser } from '../users/service.js';

/**
 * "Not you?": the single-use link of a notice locks the account, ends every session and trusted
 * device, and tells the user whom to contact — one transaction. The link must match the e-mail.
 */
export async function lockAccountFromLink(
  ctx: AppContext,
  input: { email: string; code: string },
  meta: { ip: string | null; language: Language; brand: Brand },
): Promise<{ username: string }> {
  const link = await peekLink(ctx, input.code, 'lock_account');
  const user = await findUserById(ctx.db, link.userId);
  if (!user || user.email !== normalizeEmail(input.email)) throw new AppError('link_expired');
  await transaction(ctx.db, async (trx) => {
    await consumeLink(ctx, trx, link.id);
    await lockUser(trx, user.id, ctx.clock.now());
    await endAllAccess(ctx, trx, user.id);
    await enqueueMessage(trx, ctx.clock, {
      channel: 'email',
      recipient: user.email,
      template: 'account_locked',
      language: meta.language,
      brand: meta.brand,
      params: { contactEmail: ctx.config.contactEmail },
    });
    await recordAudit(trx, ctx.clock, {
      action: 'account_locked_by_user',
      actorId: user.id,
      targetId: user.id,
      ip: meta.ip,
    });
  });
  return { username: user.email };
}
