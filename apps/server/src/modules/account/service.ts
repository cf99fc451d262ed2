import type { Brand, MyData } from '@hygie/domain';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/connection.js';
import { transaction } from '../../db/transaction.js';
import type { SessionRow, UserRow } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import { enqueueMessage, messagesToRecipients } from '../../messaging/outbox.js';
import { endAllAccess } from '../access/service.js';
import {
  allAuditEventsAbout,
  anonymiseAuditEventsOf,
  presentAuditEvent,
  recordAudit,
} from '../audit/service.js';
import { keysHeldFor } from '../biometrics/service.js';
import { codesHeldFor } from '../codes/service.js';
import { trustedDevicesHeldFor } from '../devices/service.js';
import { identityLinksOfUser } from '../identity-providers/service.js';
import { linksHeldFor } from '../links/service.js';
import { consentsOf } from '../oidc/consents.js';
import { platformAccessHeldFor } from '../platforms/service.js';
import { identityOf } from '../profile/service.js';
import { knownBrowsersOfUser, sessionsOfUser } from '../sessions/service.js';
import { assertRecentSecondFactor, checkCurrentPassword } from '../step-up/service.js';
import {
  assertNotLastActiveAdmin,
  consentsOfUser,
  deleteUser,
  findUserById,
  findUserForUpdate,
  lockAdmins,
} from '../users/service.js';
import { parseRoles } from '../users/present.js';

// "My data" (issue #15): the person's own export, and the erasure of an account — one rule for
// the person deleting their own account and for an admin deleting someone's.

/** The layout of the export file (docs/api.md). */
export const MY_DATA_FORMAT = 'hygie-my-data/1';

const iso = (at: number | string) => new Date(Number(at)).toISOString();
const isoOrNull = (at: number | string | null) => (at === null ? null : iso(at));

/** What the person stored in a JSON text column (transports), as a list of strings. */
function stringList(json: string | null): string[] {
  if (json === null) return [];
  const parsed: unknown = JSON.parse(json);
  return Array.isArray(parsed) ? parsed.filter((v): v is string => typeof v === 'string') : [];
}

/** Who caused an event about the person, as the export says it (never another person's id). */
function causedBy(actorId: string | null, userId: string): MyData['activity'][number]['by'] {
  if (actorId === userId) return 'you';
  return actorId === null ? 'system' : 'administrator';
}

/**
 * Everything the portal holds about the signed-in person, gathered from each module that holds
 * it (docs/api.md "My data" lists the sections and what is left out: secrets). Audited.
 */
export async function exportMyData(
  ctx: AppContext,
  userId: string,
  ip: string | null,
): Promise<MyData> {
  const user = await findUserById(ctx.db, userId);
  if (!user) throw new AppError('not_logged_in');
  await recordAudit(ctx.db, ctx.clock, {
    action: 'data_exported',
    actorId: user.id,
    targetId: user.id,
    ip,
  });
  const recipients = [user.email, user.phone, user.pending_email, user.pending_phone].flatMap(
    (r) => (r === null ? [] : [r]),
  );
  const [
    profile,
    terms,
    sessions,
    devices,
    browsers,
    identityLinks,
    keys,
    access,
    grants,
    codes,
    links,
    messages,
    events,
  ] = await Promise.all([
    identityOf(ctx, user.id),
    consentsOfUser(ctx.db, user.id),
    sessionsOfUser(ctx.db, user.id),
    trustedDevicesHeldFor(ctx.db, user.id),
    knownBrowsersOfUser(ctx.db, user.id),
    identityLinksOfUser(ctx.db, user.id),
    keysHeldFor(ctx.db, user.id),
    platformAccessHeldFor(ctx.db, user.id),
    consentsOf(ctx, user.id),
    codesHeldFor(ctx.db, user.id),
    linksHeldFor(ctx.db, user.id),
    messagesToRecipients(ctx.db, recipients),
    allAuditEventsAbout(ctx.db, user.id),
  ]);
  return {
    format: MY_DATA_FORMAT,
    exportedAt: iso(ctx.clock.now()),
    account: {
      id: user.id,
      type: user.type,
      status: user.status,
      roles: parseRoles(user.roles),
      createdAt: iso(user.created_at),
      updatedAt: iso(user.updated_at),
      emailVerifiedAt: isoOrNull(user.email_verified_at),
      phoneVerifiedAt: isoOrNull(user.phone_verified_at),
      passwordSet: user.password_hash !== null,
      passwordChangedAt: isoOrNull(user.password_changed_at),
      mustCreatePassword: user.must_create_password === 1,
      authenticatorAppEnabledAt: isoOrNull(user.totp_enabled_at),
      recoveryCodesRemaining: user.recovery_codes_left,
      termsVersion: user.cgu_version,
      birthDate: user.birth_date,
    },
    profile,
    termsAccepted: terms.map((c) => ({
      id: c.id,
      version: c.version,
      language: c.language,
      textHash: c.text_hash,
      acceptedAt: iso(c.accepted_at),
      ip: c.ip,
    })),
    sessions: sessions.map((s) => ({
      id: s.id,
      stage: s.stage,
      createdAt: iso(s.created_at),
      lastSeenAt: iso(s.last_seen_at),
      idleExpiresAt: iso(s.idle_expires_at),
      absoluteExpiresAt: iso(s.absolute_expires_at),
      ip: s.ip,
      userAgent: s.user_agent,
      secondFactorAt: isoOrNull(s.mfa_verified_at),
      reauthenticatedAt: isoOrNull(s.reauthenticated_at),
      trustedDeviceId: s.trusted_device_id,
      methods: s.amr ? s.amr.split(' ') : [],
      upstreamAcr: s.upstream_acr,
    })),
    trustedDevices: devices.map((d) => ({
      id: d.id,
      userAgent: d.user_agent,
      ip: d.ip,
      createdAt: iso(d.created_at),
      lastUsedAt: iso(d.last_used_at),
      expiresAt: iso(d.expires_at),
    })),
    knownBrowsers: browsers.map((b) => ({
      firstSeenAt: iso(b.created_at),
      lastSeenAt: iso(b.last_seen_at),
    })),
    identityLinks: identityLinks.map((l) => ({
      provider: l.provider,
      subject: l.subject,
      linkedAt: iso(l.created_at),
      lastUsedAt: isoOrNull(l.last_used_at),
    })),
    keys: keys.map((k) => ({
      id: k.id,
      kind: k.kind,
      deviceName: k.device_name,
      transports: stringList(k.transports),
      userVerifying: k.user_verifying === 1,
      createdAt: iso(k.created_at),
      lastUsedAt: isoOrNull(k.last_used_at),
      revokedAt: isoOrNull(k.revoked_at),
    })),
    platformAccess: access.map((a) => ({
      platformId: a.platform_id,
      platform: a.name,
      status: a.status,
      changedAt: iso(a.changed_at),
    })),
    platformConsents: grants,
    codes: codes.map((c) => ({
      id: c.id,
      purpose: c.purpose,
      destination: c.destination,
      attempts: c.attempts,
      createdAt: iso(c.created_at),
      expiresAt: iso(c.expires_at),
      consumedAt: isoOrNull(c.consumed_at),
      supersededAt: isoOrNull(c.superseded_at),
    })),
    links: links.map((l) => ({
      id: l.id,
      purpose: l.purpose,
      createdAt: iso(l.created_at),
      expiresAt: iso(l.expires_at),
      consumedAt: isoOrNull(l.consumed_at),
    })),
    messages: messages.map((m) => ({
      id: m.id,
      channel: m.channel,
      recipient: m.recipient,
      template: m.template,
      language: m.language,
      brand: m.brand,
      status: m.status,
      createdAt: iso(m.created_at),
      sentAt: isoOrNull(m.sent_at),
    })),
    activity: events.map((row) => {
      const event = presentAuditEvent(row);
      const by = causedBy(row.actor_id, user.id);
      // Only the person's own acts carry their address and browser: an admin's are the admin's,
      // and an event nobody signed in caused (a failed sign-in, a platform's call, someone else's
      // sign-up with the person's INS) carries whoever's it was.
      const theirs = by === 'you';
      return {
        id: event.id,
        at: event.at,
        action: event.action,
        by,
        ip: theirs ? event.ip : null,
        userAgent: theirs ? event.userAgent : null,
        requestId: event.requestId,
        details: event.details,
      };
    }),
  };
}

/** Who erases an account: the person themself, an admin, or the operator at the command line. */
export interface Eraser {
  /** The person or the admin; null for the command line. */
  actorId: string | null;
  ip: string | null;
  brand: Brand;
  via?: 'cli';
  /**
   * `rejected`: an admin turned down a professional's sign-up (its own e-mail and event,
   * `account_rejected`); otherwise a deletion (`account_deleted`).
   */
  reason?: 'deleted' | 'rejected';
}

/** The last e-mail, at the address being erased. */
async function queueGoodbye(ctx: AppContext, trx: Db, user: UserRow, by: Eraser): Promise<void> {
  const message = {
    channel: 'email',
    recipient: user.email,
    language: user.language,
    brand: by.brand,
  } as const;
  if (by.reason === 'rejected') {
    await enqueueMessage(trx, ctx.clock, {
      ...message,
      template: 'account_rejected',
      params: {
        loginUrl: new URL('/security/login', ctx.config.publicUrl).href,
        contactEmail: ctx.config.contactEmail,
      },
    });
    return;
  }
  await enqueueMessage(trx, ctx.clock, {
    ...message,
    template: 'account_changed',
    params: {
      change: by.actorId === user.id ? 'self_deleted' : 'deleted',
      contactEmail: ctx.config.contactEmail,
    },
  });
}

/**
 * Erases an account (a deletion, or a professional's sign-up rejected), in the caller's transaction, under the admins lock (lockAdmins, taken by the
 * caller with the row read for update): its sessions and platforms' tokens end (platforms told by
 * back-channel notices), the person is told at the address being erased, the event is recorded,
 * then the trail loses the addresses and browsers the person left (the event just written
 * included, when the person erased their own account) and the row goes with everything hanging
 * off it. The last active admin is never erased (409 last_admin).
 */
export async function eraseAccount(
  ctx: AppContext,
  trx: Db,
  user: UserRow,
  by: Eraser,
): Promise<void> {
  await assertNotLastActiveAdmin(trx, user);
  await endAllAccess(ctx, trx, user.id);
  await queueGoodbye(ctx, trx, user, by);
  await recordAudit(trx, ctx.clock, {
    action: by.reason === 'rejected' ? 'account_rejected' : 'account_deleted',
    actorId: by.actorId,
    targetId: user.id,
    ip: by.ip,
    ...(by.via === 'cli' && { details: { via: 'cli' } }),
  });
  await anonymiseAuditEventsOf(trx, user.id);
  await deleteUser(trx, user.id);
}

/** The signed-in person deleting their own account, and how they proved it is them. */
export interface SelfDeletion {
  session: Pick<SessionRow, 'user_id' | 'mfa_verified_at'>;
  /** The current password; without it, a second factor passed in the last 5 minutes. */
  password?: string;
  ip: string | null;
  brand: Brand;
}

/**
 * The person deletes their own account after a step-up: the current password (checked under its
 * throttle; a wrong one deletes nothing) or a fresh second factor on the session (403
 * second_factor_required, with the channels to send a code to). The same erasure as an admin's.
 * A second request racing the first finds no account (401 not_logged_in).
 */
export async function deleteMyAccount(ctx: AppContext, input: SelfDeletion): Promise<void> {
  const user = await findUserById(ctx.db, input.session.user_id);
  if (!user) throw new AppError('not_logged_in');
  if (input.password !== undefined) await checkCurrentPassword(ctx, user, input.password);
  else assertRecentSecondFactor(ctx, input.session, user);
  await transaction(ctx.db, async (trx) => {
    await lockAdmins(trx);
    const current = await findUserForUpdate(trx, user.id);
    if (!current) throw new AppError('not_logged_in');
    await eraseAccount(ctx, trx, current, {
      actorId: current.id,
      ip: input.ip,
      brand: input.brand,
    });
  });
}
