import type { Brand, Language } from '@hygie/domain';
import { normalizeEmail } from '@hygie/domain';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/connection.js';
import { transaction } from '../../db/transaction.js';
import { enqueueMessage } from '../../messaging/outbox.js';
import { recordAudit } from '../audit/service.js';
import { issueLink, LINK_TTL_MS } from '../links/service.js';
import { assertEmailAvailable, createUser } from '../users/service.js';

export interface Invitation {
  email: string;
  admin?: boolean;
  profile?: 'patient' | 'professional' | null;
  firstName?: string | null;
  lastName?: string | null;
  language?: Language;
  brand?: Brand;
  invitedBy?: string | null;
}

/** The first-login link of an invitation. */
export function firstLoginUrl(publicUrl: URL, userId: string, email: string, code: string): string {
  const url = new URL('/security/first-login', publicUrl);
  url.searchParams.set('personIdentifier', userId);
  url.searchParams.set('email', email);
  url.searchParams.set('code', code);
  return url.href;
}

/**
 * Issues a first-login link (valid 7 days) and queues the invitation e-mail carrying it, in the
 * caller's transaction; returns the link.
 */
export async function queueInvitation(
  ctx: AppContext,
  trx: Db,
  user: { id: string; email: string; language: Language; brand: Brand },
): Promise<string> {
  const code = await issueLink(ctx, trx, user.id, 'first_login');
  const link = firstLoginUrl(ctx.config.publicUrl, user.id, user.email, code);
  await enqueueMessage(trx, ctx.clock, {
    expiresAt: ctx.clock.now() + LINK_TTL_MS.first_login,
    channel: 'email',
    recipient: user.email,
    template: 'first_login_invitation',
    language: user.language,
    brand: user.brand,
    params: { link },
  });
  return link;
}

/**
 * Creates an account without a password and e-mails its first-login link (valid 7 days), in one
 * transaction. Returns the link too (the CLI prints it).
 */
export async function inviteUser(
  ctx: AppContext,
  invitation: Invitation,
): Promise<{ userId: string; link: string }> {
  const email = normalizeEmail(invitation.email);
  await assertEmailAvailable(ctx, email);
  let userId = '';
  let link = '';
  await transaction(ctx.db, async (trx) => {
    userId = await createUser(ctx, trx, {
      email,
      passwordHash: null,
      mustCreatePassword: true,
      profile: invitation.profile ?? null,
      status: 'active',
      roles: invitation.admin ? ['admin'] : [],
      firstName: invitation.firstName ?? null,
      lastName: invitation.lastName ?? null,
      language: invitation.language ?? 'fr',
    });
    link = await queueInvitation(ctx, trx, {
      id: userId,
      email,
      language: invitation.language ?? 'fr',
      brand: invitation.brand ?? 'hygie',
    });
    await recordAudit(trx, ctx.clock, {
      action: 'user_invited',
      actorId: invitation.invitedBy ?? null,
      targetId: userId,
      details: { admin: !!invitation.admin },
    });
  });
  return { userId, link };
}
