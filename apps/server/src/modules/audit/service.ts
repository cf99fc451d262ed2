import type { Db } from '../../db/connection.js';
import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import { currentRequestScope } from '../../lib/request-scope.js';
import type { AdminAuditEvent, AuditAction } from '@hygie/domain';
import type { AuditEventTable } from '../../db/schema.js';
import {
  insertAuditEvent,
  lastAuditEventAt,
  listAuditEvents,
  listAuditEventsAbout,
} from './repository.js';

export {
  allAuditEventsAbout,
  anonymiseAuditEventsOf,
  deleteAuditEventsBefore,
} from './repository.js';

/**
 * The action of an event: one of AUDIT_ACTIONS (@hygie/domain) — an unknown name fails to
 * type-check. A value typed only `string` still passes: admin/user-actions.ts's helper takes its
 * action as a string (narrowing it to AuditAction there closes this gap).
 */
type KnownAction<A extends string> = A & (string extends A ? string : AuditAction);

export interface AuditEvent<A extends string = AuditAction> {
  action: KnownAction<A>;
  actorId?: string | null;
  targetId?: string | null;
  ip?: string | null;
  details?: Record<string, unknown>;
}

/** Appends an audit event (in the caller's transaction when `db` is one). */
export async function recordAudit<A extends string>(
  db: Db,
  clock: Clock,
  event: AuditEvent<A>,
): Promise<void> {
  // The request being served names itself: its id (as in its log lines) and user agent.
  const scope = currentRequestScope();
  await insertAuditEvent(db, {
    id: newId(),
    at: clock.now(),
    actor_id: event.actorId ?? null,
    action: event.action,
    target_id: event.targetId ?? null,
    ip: event.ip ?? null,
    details: event.details ? JSON.stringify(event.details) : null,
    request_id: scope?.requestId ?? null,
    user_agent: scope?.userAgent?.slice(0, 512) ?? null,
  });
}

/** The actions that mean the person signed in (by password, or with a biometric key). */
const SIGN_IN_ACTIONS: readonly AuditAction[] = ['login', 'login_biometric'];

function detailsOf(json: string | null): Record<string, unknown> | null {
  if (json === null) return null;
  const parsed: unknown = JSON.parse(json);
  return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
    ? Object.fromEntries(Object.entries(parsed))
    : null;
}

/** An audit event as the admin area shows it. */
export function presentAuditEvent(row: AuditEventTable): AdminAuditEvent {
  return {
    id: row.id,
    at: new Date(Number(row.at)).toISOString(),
    action: row.action,
    actorId: row.actor_id,
    targetId: row.target_id,
    ip: row.ip,
    userAgent: row.user_agent,
    requestId: row.request_id,
    details: detailsOf(row.details),
  };
}

/** The last events about a user, newest first. */
export async function auditEventsAbout(
  db: Db,
  userId: string,
  limit: number,
): Promise<AdminAuditEvent[]> {
  return (await listAuditEventsAbout(db, userId, limit)).map(presentAuditEvent);
}

/** When the user last signed in, if ever. */
export function lastSignInAt(db: Db, userId: string): Promise<number | null> {
  return lastAuditEventAt(db, userId, SIGN_IN_ACTIONS);
}

/**
 * A page of the events about one user among these actions, newest first: keyset on (at, id), the
 * page after `after` (the last event of the previous one). One more row than `limit` says whether
 * another page follows.
 */
export function auditEventsAboutPage(
  db: Db,
  userId: string,
  actions: readonly string[],
  after: { at: number; id: string } | undefined,
  limit: number,
): Promise<AuditEventTable[]> {
  return listAuditEvents(db, { targetId: userId, actions, ...(after && { after }) }, limit);
}
