import type { CurrentUser, LoginInput } from '@hygie/domain';
import {
  isValidEmail,
  normalizeEmail,
  normalizeMobilePhone,
  normalizePassword,
} from '@hygie/domain';
import type { AppContext } from '../../context.js';
import type { UserRow } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import { recordAudit } from '../audit/service.js';
import { findUserByEmail, findUserByPhone, updatePasswordHash } from '../users/repository.js';
import { presentUser } from '../users/present.js';
import type { SessionMeta } from '../sessions/service.js';
import { COMPLETE, openSession } from '../sessions/service.js';
import { pendingStage } from './stages.js';

/** Finds the account a login identifier names: an e-mail or a mobile phone number. */
async function findByUsername(ctx: AppContext, username: string): Promise<UserRow | undefined> {
  if (username.includes('@')) {
    return isValidEmail(username) ? findUserByEmail(ctx.db, normalizeEmail(username)) : undefined;
  }
  const phone = normalizeMobilePhone(username);
  return phone ? findUserByPhone(ctx.db, phone) : undefined;
}

export interface LoginResult {
  token: string;
  absoluteExpiresAt: number;
  /** The user when the sign-in is complete, else the pending stage's code. */
  outcome: { user: CurrentUser } | { pending: string };
}

/**
 * Password step of sign-in. Unknown accounts and wrong passwords get the same answer after the
 * same argon2 work (security.md: no user enumeration).
 */
export async function login(
  ctx: AppContext,
  input: LoginInput,
  meta: SessionMeta,
): Promise<LoginResult> {
  const user = await findByUsername(ctx, input.username);
  const password = normalizePassword(input.password);
  const ok = await ctx.passwords.verify(user?.password_hash ?? null, password);
  if (!user || !ok) {
    await recordAudit(ctx.db, ctx.clock, {
      action: 'login_failed',
      targetId: user?.id ?? null,
      ip: meta.ip,
    });
    throw new AppError('bad_credentials');
  }
  if (user.status === 'locked') {
    throw new AppError('account_locked', { contactEmail: ctx.config.contactEmail });
  }
  if (user.status === 'pending_validation') throw new AppError('account_pending_validation');

  const now = ctx.clock.now();
  if (user.password_hash && ctx.passwords.needsRehash(user.password_hash)) {
    await updatePasswordHash(ctx.db, user.id, await ctx.passwords.hash(password), now);
  }
  const stage = pendingStage(user);
  const session = await openSession(ctx, user.id, stage, meta);
  await recordAudit(ctx.db, ctx.clock, {
    action: 'login',
    actorId: user.id,
    targetId: user.id,
    ip: meta.ip,
  });
  return {
    token: session.token,
    absoluteExpiresAt: session.absoluteExpiresAt,
    outcome:
      stage === COMPLETE
        ? {
            user: presentUser(user, {
              idleExpiresAt: session.idleExpiresAt,
              absoluteExpiresAt: session.absoluteExpiresAt,
            }),
          }
        : { pending: stage },
  };
}
