import type { AuditAction, Brand, UserAction } from '@hygie/domain';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/connection.js';
import { transaction } from '../../db/transaction.js';
import type { SessionRow, UserRow } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import type { AccountChange } from '../../messaging/templates.js';
import { enqueueMessage } from '../../messaging/outbox.js';
import { endAllAccess } from '../access/service.js';
import { eraseAccount } from '../account/service.js';
import { recordAudit } from '../audit/service.js';
import { queueInvitation } from '../first-login/invite.js';
import { issueLink, voidLinksOfUser } from '../links/service.js';
import { endPlatformAccess } from '../oidc/service.js';
import { assertRecentSecondFactor } from '../step-up/service.js';
import { Throttle } from '../throttle/service.js';
import {
  assertNotLastActiveAdmin,
  findUserForUpdate,
  isAdmin,
  isClosed,
  lockAdmins,
  revokeAccess,
  setUserRoles,
  setUserStatus,
} from '../users/service.js';
import { parseRoles } from '../users/present.js';

/**
 * Who acts: an admin in the admin area (its session's last proof gates the acts that cut access),
 * or the operator at the command line (`via: 'cli'`: shell access to the server is the proof).
 */
export type AdminActing =
  | {
      via: 'admin';
      userId: string;
      ip: string | null;
      brand: Brand;
      session: Pick<SessionRow, 'mfa_verified_at'> & {
        user: Pick<
          UserRow,
          'id' | 'email' | 'phone' | 'phone_verified_at' | 'totp_enabled_at' | 'recovery_codes_left'
        >;
      };
    }
  | { via: 'cli'; brand: Brand };

/** The acts that cut someone's access need the admin's second factor under 5 minutes old. */
function assertFresh(ctx: AppContext, actor: AdminActing): void {
  if (actor.via === 'admin') assertRecentSecondFactor(ctx, actor.session, actor.session.user);
}

/** An admin-sent password link lasts a day: the person may read the e-mail hours later. */
export const ADMIN_RESET_LINK_TTL_MS = 24 * 60 * 60_000;

/**
 * The target, read under the admins lock in the caller's transaction. When the change would take
 * an active admin away (lock, disable, demote, delete), another active admin must remain: two
 * admins removing each other at once are judged one after the other.
 */
async function targetOf(
  trx: Db,
  userId: string,
  removesAdmin: boolean,
  actor: AdminActing,
): Promise<UserRow> {
  await lockAdmins(trx);
  // The acting admin is judged again under the lock: one demoted meanwhile acts no more.
  if (actor.via === 'admin') {
    const acting = await findUserForUpdate(trx, actor.userId);
    if (!acting || acting.status !== 'active' || !isAdmin(acting)) {
      throw new AppError('forbidden');
    }
  }
  const user = await findUserForUpdate(trx, userId);
  if (!user) throw new AppError('not_found');
  if (removesAdmin) await assertNotLastActiveAdmin(trx, user);
  return user;
}

/** Tells the owner what an admin changed on their account (in their language). */
async function tell(
  ctx: AppContext,
  trx: Db,
  user: Pick<UserRow, 'email' | 'language'>,
  change: AccountChange,
  brand: Brand,
): Promise<void> {
  await enqueueMessage(trx, ctx.clock, {
    channel: 'email',
    recipient: user.email,
    template: 'account_changed',
    language: user.language,
    brand,
    params: { change, contactEmail: ctx.config.contactEmail },
  });
}

async function audit(
  ctx: AppContext,
  trx: Db,
  action: AuditAction,
  user: Pick<UserRow, 'id'>,
  actor: AdminActing,
  details?: Record<string, unknown>,
): Promise<void> {
  const all = { ...details, ...(actor.via === 'cli' && { via: 'cli' }) };
  await recordAudit(trx, ctx.clock, {
    action,
    actorId: actor.via === 'admin' ? actor.userId : null,
    targetId: user.id,
    ip: actor.via === 'admin' ? actor.ip : null,
    ...(Object.keys(all).length > 0 && { details: all }),
  });
}

/** A closed account stays closed: locked and disabled need their own action to reopen. */
function assertStatus(user: Pick<UserRow, 'status'>, ...allowed: UserRow['status'][]): void {
  if (!allowed.includes(user.status)) throw new AppError('account_state_conflict');
}

type Handler = (ctx: AppContext, trx: Db, userId: string, actor: AdminActing) => Promise<void>;

/** Reopens a closed account (locked or disabled): its sign-in throttle cleared, the owner told. */
function reopen(
  from: 'locked' | 'disabled',
  action: 'account_unlocked' | 'account_enabled',
): { fresh: boolean; run: Handler } {
  return {
    fresh: false,
    async run(ctx, trx, userId, actor) {
      const user = await targetOf(trx, userId, false, actor);
      assertStatus(user, from);
      await setUserStatus(trx, user.id, 'active', ctx.clock.now());
      await new Throttle(trx, ctx.clock).resetAccount(user.id);
      await tell(ctx, trx, user, 'reopened', actor.brand);
      await audit(ctx, trx, action, user, actor);
    },
  };
}

/**
 * Each action, in one transaction with its e-mail and audit event. `fresh`: the admin's second
 * factor (at sign-in or a step-up) must be under 5 minutes old — these cut someone's access.
 */
const ACTIONS: Record<UserAction, { fresh: boolean; run: Handler }> = {
  lock: {
    fresh: true,
    async run(ctx, trx, userId, actor) {
      const user = await targetOf(trx, userId, true, actor);
      assertStatus(user, 'active', 'pending_validation');
      await setUserStatus(trx, user.id, 'locked', ctx.clock.now());
      await endAllAccess(ctx, trx, user.id);
      await enqueueMessage(trx, ctx.clock, {
        channel: 'email',
        recipient: user.email,
        template: 'account_locked',
        language: user.language,
        brand: actor.brand,
        params: { contactEmail: ctx.config.contactEmail },
      });
      await audit(ctx, trx, 'account_locked', user, actor);
    },
  },
  unlock: reopen('locked', 'account_unlocked'),
  disable: {
    fresh: true,
    async run(ctx, trx, userId, actor) {
      const user = await targetOf(trx, userId, true, actor);
      assertStatus(user, 'active', 'pending_validation', 'locked');
      await setUserStatus(trx, user.id, 'disabled', ctx.clock.now());
      await endAllAccess(ctx, trx, user.id);
      await tell(ctx, trx, user, 'disabled', actor.brand);
      await audit(ctx, trx, 'account_disabled', user, actor);
    },
  },
  enable: reopen('disabled', 'account_enabled'),
  'end-sessions': {
    fresh: true,
    async run(ctx, trx, userId, actor) {
      const user = await targetOf(trx, userId, false, actor);
      // Portal sessions, trusted browsers and what platforms hold; the password and keys stay.
      await revokeAccess(trx, user.id);
      await endPlatformAccess(ctx, trx, user.id);
      await tell(ctx, trx, user, 'sessions_ended', actor.brand);
      await audit(ctx, trx, 'sessions_ended', user, actor);
    },
  },
  'send-password-reset': {
    fresh: false,
    async run(ctx, trx, userId, actor) {
      const user = await targetOf(trx, userId, false, actor);
      if (isClosed(user) || user.password_hash === null) {
        throw new AppError('account_state_conflict');
      }
      // One link at a time: an earlier one stops working.
      await voidLinksOfUser(ctx, trx, user.id, ['password_reset']);
      const token = await issueLink(ctx, trx, user.id, 'password_reset', ADMIN_RESET_LINK_TTL_MS);
      const link = new URL('/security/forgot-password', ctx.config.publicUrl);
      link.searchParams.set('token', token);
      await enqueueMessage(trx, ctx.clock, {
        expiresAt: ctx.clock.now() + ADMIN_RESET_LINK_TTL_MS,
        channel: 'email',
        recipient: user.email,
        template: 'password_reset_link',
        language: user.language,
        brand: actor.brand,
        params: { link: link.href },
      });
      await audit(ctx, trx, 'password_reset_sent', user, actor);
    },
  },
  'resend-invitation': {
    fresh: false,
    async run(ctx, trx, userId, actor) {
      const user = await targetOf(trx, userId, false, actor);
      if (user.password_hash !== null || isClosed(user)) {
        throw new AppError('account_state_conflict');
      }
      await voidLinksOfUser(ctx, trx, user.id, ['first_login']);
      await queueInvitation(ctx, trx, { ...user, brand: actor.brand });
      await audit(ctx, trx, 'invitation_resent', user, actor);
    },
  },
};

/** Runs one admin action on a user (audited, the owner told by e-mail where access changes). */
export async function actOnUser(
  ctx: AppContext,
  userId: string,
  action: UserAction,
  actor: AdminActing,
): Promise<void> {
  const { fresh, run } = ACTIONS[action];
  if (fresh) assertFresh(ctx, actor);
  await transaction(ctx.db, (trx) => run(ctx, trx, userId, actor));
}

/** Makes a user an admin, or a user only; never the last active admin. */
export async function setRole(
  ctx: AppContext,
  userId: string,
  role: 'admin' | 'user',
  actor: AdminActing,
): Promise<void> {
  assertFresh(ctx, actor);
  await transaction(ctx.db, async (trx) => {
    const user = await targetOf(trx, userId, role === 'user', actor);
    const roles = parseRoles(user.roles).filter((r) => r !== 'admin');
    if (role === 'admin') roles.push('admin');
    if (isAdmin(user) === (role === 'admin')) return;
    await setUserRoles(trx, user.id, roles, ctx.clock.now());
    await tell(ctx, trx, user, role === 'admin' ? 'admin_granted' : 'admin_revoked', actor.brand);
    await audit(ctx, trx, 'role_changed', user, actor, { role });
  });
}

/**
 * Erases an account (account/service.ts eraseAccount, the rule a person deleting their own account
 * follows too): personal data erased, platforms told, the trail kept without the person's
 * addresses. An admin deletes their own account from their profile, not here.
 */
export async function deleteAccount(
  ctx: AppContext,
  userId: string,
  actor: AdminActing,
): Promise<void> {
  assertFresh(ctx, actor);
  if (actor.via === 'admin' && userId === actor.userId) throw new AppError('forbidden');
  await transaction(ctx.db, async (trx) => {
    const user = await targetOf(trx, userId, false, actor);
    await eraseAccount(ctx, trx, user, {
      actorId: actor.via === 'admin' ? actor.userId : null,
      ip: actor.via === 'admin' ? actor.ip : null,
      brand: actor.brand,
      ...(actor.via === 'cli' && { via: 'cli' }),
    });
  });
}
