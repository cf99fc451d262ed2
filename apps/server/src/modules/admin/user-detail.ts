import type { AdminUserDetail } from '@hygie/domain';
import type { AppContext } from '../../context.js';
import { describeUserAgent } from '../../lib/user-agent.js';
import { auditEventsAbout, lastSignInAt } from '../audit/service.js';
import { listMyKeys } from '../biometrics/service.js';
import { consentsOf } from '../oidc/consents.js';
import { trustedDevicesOf } from '../devices/service.js';
import { platformStandingOfUsers } from '../platforms/service.js';
import { identityOf } from '../profile/service.js';
import { COMPLETE, listLiveSessionsOfUser } from '../sessions/service.js';
import { findUserById } from '../users/service.js';
import { parseRoles } from '../users/present.js';
import { AppError } from '../../lib/app-error.js';

/** How many of the user's last audit events the detail shows (the audit screen has them all). */
const RECENT_EVENTS = 20;

function iso(at: number | null): string | null {
  return at === null ? null : new Date(at).toISOString();
}

/** One user in detail for an operator: identity, channels, status, sessions, devices, keys, access. */
export async function userDetail(ctx: AppContext, userId: string): Promise<AdminUserDetail> {
  const user = await findUserById(ctx.db, userId);
  if (!user) throw new AppError('not_found');
  const now = ctx.clock.now();
  const [profile, sessions, trustedDevices, keys, standing, consents, events, signedInAt] =
    await Promise.all([
      identityOf(ctx, user.id),
      listLiveSessionsOfUser(ctx.db, user.id, now),
      trustedDevicesOf(ctx, user.id),
      listMyKeys(ctx, user.id),
      platformStandingOfUsers(ctx, [user.id]),
      consentsOf(ctx, user.id),
      auditEventsAbout(ctx.db, user.id, RECENT_EVENTS),
      lastSignInAt(ctx.db, user.id),
    ]);
  return {
    profile,
    roles: parseRoles(user.roles),
    createdAt: new Date(user.created_at).toISOString(),
    lastSignInAt: iso(signedInAt),
    passwordChangedAt: iso(user.password_changed_at),
    invitationPending: user.must_create_password === 1 && user.password_hash === null,
    sessions: sessions.map((s) => ({
      id: s.id,
      createdAt: new Date(s.created_at).toISOString(),
      lastSeenAt: new Date(s.last_seen_at).toISOString(),
      ip: s.ip,
      label: describeUserAgent(s.user_agent),
      complete: s.stage === COMPLETE,
      methods: s.amr ? s.amr.split(' ') : [],
    })),
    trustedDevices,
    keys,
    platforms: standing(user.id),
    consents,
    events,
  };
}
