import type { Brand, Language } from '@hygie/domain';
import { normalizeEmail } from '@hygie/domain';
import type { AppContext } from '../../context.js';
import { AppError } from '../../lib/app-error.js';
import { newId } from '../../lib/ids.js';
import { enqueueMessage } from '../../messaging/outbox.js';
import { recordAudit } from '../audit/service.js';
import { issueLink } from '../links/service.js';
import { findUserByEmail, insertUser } from '../users/repository.js';
import { searchKey } from '../users/search-key.js';

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
 * Creates an account without a password and e-mails its first-login link (valid 7 days), in one
 * transaction. Returns the link too (the CLI prints it).
 */
export async function inviteUser(
  ctx: AppContext,
  invitation: Invitation,
): Promise<{ userId: string; link: string }> {
  const email = normalizeEmail(invitation.email);
  const existing = await findUserByEmail(ctx.db, email);
  if (existing) throw new AppError('email_already_used');
  const now = ctx.clock.now();
  const userId = newId();
  let link = '';
  await ctx.db.transaction().execute(async (trx) => {
    await insertUser(trx, {
      id: userId,
      type: 'person',
      email,
      email_verified_at: null,
      phone: null,
      phone_verified_at: null,
      password_hash: null,
      password_changed_at: null,
      must_create_password: 1,
      profile: invitation.profile ?? null,
      status: 'active',
      roles: JSON.stringify(invitation.admin ? ['admin'] : []),
      first_name: invitation.firstName ?? null,
      last_name: invitation.lastName ?? null,
      birth_name: null,
      language: invitation.language ?? 'fr',
      created_at: now,
      updated_at: now,
      birth_date: null,
      birth_place_insee: null,
      sex: null,
      ins: null,
      ins_oid: null,
      first_name_used: null,
      last_name_used: null,
      professional_id_type: null,
      professional_id: null,
      job: null,
      specialty: null,
      cgu_version: null,
      search_name: searchKey(invitation.firstName, invitation.lastName),
    });
    const code = await issueLink(ctx, trx, userId, 'first_login');
    link = firstLoginUrl(ctx.config.publicUrl, userId, email, code);
    await enqueueMessage(trx, ctx.clock, {
      channel: 'email',
      recipient: email,
      template: 'first_login_invitation',
      language: invitation.language ?? 'fr',
      brand: invitation.brand ?? 'hygie',
      params: { link },
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
