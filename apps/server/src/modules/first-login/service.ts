import type { Brand, Language } from '@hygie/domain';
import { transaction } from '../../db/transaction.js';
import { normalizeEmail, normalizePassword } from '@hygie/domain';
import type { AppContext } from '../../context.js';
import { AppError } from '../../lib/app-error.js';
import { emailVerificationStage, passwordCreationStage } from '../auth/service.js';
import { consumeLink, peekLink } from '../links/service.js';
import { assertAcceptablePassword } from '../password/service.js';
import { findUserById } from '../users/service.js';

export interface FirstLoginLink {
  personIdentifier: string;
  email: string;
  code: string;
}

/** The invited person named by a first-login link; link_expired for anything else (same answer). */
async function invitedUser(ctx: AppContext, link: FirstLoginLink) {
  const found = await peekLink(ctx, link.code, 'first_login');
  const user = await findUserById(ctx.db, found.userId);
  if (!user || user.id !== link.personIdentifier || user.email !== normalizeEmail(link.email)) {
    throw new AppError('link_expired');
  }
  return { linkId: found.id, user };
}

/** What the first-login page shows for a valid link. */
export async function readFirstLoginLink(
  ctx: AppContext,
  link: FirstLoginLink,
): Promise<{ email: string; firstName: string | null }> {
  const { user } = await invitedUser(ctx, link);
  return { email: user.email, firstName: user.first_name };
}

/**
 * Creates the first password from the e-mailed link (used once). Following the link proves the
 * address, so the e-mail stage is finished too.
 */
export async function createFirstPassword(
  ctx: AppContext,
  input: FirstLoginLink & { password: string },
  request: { ip: string | null; userAgent: string | null; language: Language; brand: Brand },
): Promise<void> {
  const { linkId, user } = await invitedUser(ctx, input);
  const password = normalizePassword(input.password);
  assertAcceptablePassword(password, user);
  const hash = await ctx.passwords.hash(password);
  const actor = { browserToken: null, ...request, userId: user.id, sessionId: null };
  await transaction(ctx.db, async (trx) => {
    await consumeLink(ctx, trx, linkId);
    await passwordCreationStage.complete(ctx, trx, actor, {
      passwordHash: hash,
      action: 'first_password_created',
    });
    await emailVerificationStage.complete(ctx, trx, actor);
  });
}
