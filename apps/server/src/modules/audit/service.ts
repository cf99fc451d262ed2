import type { Db } from '../../db/connection.js';
import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import { currentRequestScope } from '../../lib/request-scope.js';
import { insertAuditEvent } from './repository.js';

export interface AuditEvent {
  action: string;
  actorId?: string | null;
  targetId?: string | null;
  ip?: string | null;
  details?: Record<string, unknown>;
}

/** Appends an audit event (in the caller's transaction when `db` is one). */
export async function recordAudit(db: Db, clock: Clock, event: AuditEvent): Promise<void> {
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
