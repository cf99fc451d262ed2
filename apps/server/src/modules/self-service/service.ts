import type {
  MyActivityEvent,
  MyActivityPage,
  MyActivityQuery,
  MyConsent,
  MySession,
} from '@hygie/domain';
import { transaction } from '../../db/transaction.js';
import { MY_ACTIVITY_ACTIONS } from '@hygie/domain';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import type { AuditEventTable } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import { parseUserAgent } from '../../lib/user-agent.js';
import { assuranceLevel } from '../assurance/level.js';
import { mappingOf } from '../assurance/service.js';
import { auditEventsAboutPage, recordAudit } from '../audit/service.js';
import { consentsOf } from '../oidc/consents.js';
import { endPlatformAccessOfClient } from '../oidc/service.js';
import { platformNames } from '../platforms/service.js';
import { loadSettings } from '../settings/service.js';
import {
  COMPLETE,
  endOtherSessionsOfUser,
  endSessionOfUser,
  listLiveSessionsOfUser,
} from '../sessions/service.js';

/** Who asks: the signed-in person, their session and address. */
export interface Me {
  userId: string;
  sessionId: string;
  ip: string | null;
}

const iso = (at: number) => new Date(Number(at)).toISOString();

/** My live portal sessions: the one asking first (`current`), then the newest first. */
export async function mySessions(ctx: AppContext, me: Me): Promise<MySession[]> {
  const rows = await listLiveSessionsOfUser(ctx.db, me.userId, ctx.clock.now());
  const mapping = mappingOf(await loadSettings(ctx));
  const ordered = [
    ...rows.filter((s) => s.id === me.sessionId),
    ...rows.filter((s) => s.id !== me.sessionId),
  ];
  return ordered.map((s) => ({
    id: s.id,
    device: parseUserAgent(s.user_agent),
    ip: s.ip,
    createdAt: iso(s.created_at),
    lastSeenAt: iso(s.last_seen_at),
    methods: s.amr ? s.amr.split(' ').filter(Boolean) : [],
    level: assuranceLevel(s, mapping),
    complete: s.stage === COMPLETE,
    current: s.id === me.sessionId,
  }));
}

/**
 * Ends one of my sessions, at once (its next request is 401). Another person's session, or an
 * unknown id, is not_found: no hint that it exists. Ending the current one is a sign-out.
 */
export async function endMySession(ctx: AppContext, me: Me, sessionId: string): Promise<void> {
  const ended = await transaction(ctx.db, async (trx) => {
    const count = await endSessionOfUser(trx, me.userId, sessionId);
    if (count === 1) {
      await recordAudit(trx, ctx.clock, {
        action: 'sessions_ended',
        actorId: me.userId,
        targetId: me.userId,
        ip: me.ip,
        details: { scope: 'one', current: sessionId === me.sessionId },
      });
    }
    return count;
  });
  if (ended !== 1) throw new AppError('not_found');
}

/** "Sign out everywhere else": every session of mine but this one; how many ended (audited if any). */
export async function endMyOtherSessions(ctx: AppContext, me: Me): Promise<number> {
  return transaction(ctx.db, async (trx) => {
    const count = await endOtherSessionsOfUser(trx, me.userId, me.sessionId);
    if (count === 0) return 0;
    await recordAudit(trx, ctx.clock, {
      action: 'sessions_ended',
      actorId: me.userId,
      targetId: me.userId,
      ip: me.ip,
      details: { scope: 'others', count },
    });
    return count;
  });
}

/** What an event's details may show its person: codes, and platforms by name (never ids). */
const shownDetails = z.object({
  reason: z.string().optional(),
  channel: z.string().optional(),
  method: z.string().optional(),
  kind: z.string().optional(),
  role: z.string().optional(),
  clientId: z.string().optional(),
  platformId: z.string().optional(),
  scopes: z.array(z.string()).optional(),
});

const isMyActivityAction = (action: string): action is MyActivityEvent['action'] =>
  MY_ACTIVITY_ACTIONS.some((a) => a === action);

function present(
  row: AuditEventTable,
  userId: string,
  names: Awaited<ReturnType<typeof platformNames>>,
): MyActivityEvent | null {
  if (!isMyActivityAction(row.action)) return null;
  const by = row.actor_id === null ? 'nobody' : row.actor_id === userId ? 'me' : 'administrator';
  const parsed = row.details === null ? null : shownDetails.safeParse(JSON.parse(row.details));
  const { clientId, platformId, ...codes } = parsed?.success ? parsed.data : {};
  const platform =
    (clientId !== undefined ? names.byClientId.get(clientId) : undefined) ??
    (platformId !== undefined ? names.byId.get(platformId) : undefined);
  // An administrator's address and browser are theirs, not the person's: not shown.
  const administrator = by === 'administrator';
  return {
    id: row.id,
    at: iso(row.at),
    action: row.action,
    by,
    ip: administrator ? null : row.ip,
    device: administrator || row.user_agent === null ? null : parseUserAgent(row.user_agent),
    details: { ...codes, ...(platform !== undefined && { platform }) },
  };
}

function cursorOf(cursor: string | undefined): { at: number; id: string } | undefined {
  const [at, id] = cursor?.split('.') ?? [];
  return at && id ? { at: Number(at), id } : undefined;
}

/** My security events, newest first, a page at a time: only events about me. */
export async function myActivity(
  ctx: AppContext,
  userId: string,
  query: MyActivityQuery,
): Promise<MyActivityPage> {
  const [rows, names] = await Promise.all([
    auditEventsAboutPage(
      ctx.db,
      userId,
      MY_ACTIVITY_ACTIONS,
      cursorOf(query.before),
      query.limit + 1,
    ),
    platformNames(ctx),
  ]);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    items: page.flatMap((row) => present(row, userId, names) ?? []),
    nextCursor: rows.length > query.limit && last ? `${Number(last.at)}.${last.id}` : null,
  };
}

/** The platforms I let in: their live grants, by platform, scopes and date. */
export function myConsents(ctx: AppContext, userId: string): Promise<MyConsent[]> {
  return consentsOf(ctx, userId);
}

/**
 * "Remove access": one platform's grants, tokens and provider sessions end (the platform told by
 * back-channel logout if it takes notices); its next sign-in asks for consent again. A platform
 * holding no grant of mine is not_found.
 */
export async function removeMyConsent(ctx: AppContext, me: Me, clientId: string): Promise<void> {
  const removed = await transaction(ctx.db, async (trx) => {
    if (!(await endPlatformAccessOfClient(ctx, trx, me.userId, clientId))) return false;
    await recordAudit(trx, ctx.clock, {
      action: 'oidc_grant_revoked',
      actorId: me.userId,
      targetId: me.userId,
      ip: me.ip,
      details: { clientId, reason: 'removed_by_user' },
    });
    return true;
  });
  if (!removed) throw new AppError('not_found');
}
