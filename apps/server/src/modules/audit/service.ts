import type { Db } from '../../db/connection.js';
import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
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
  await insertAuditEvent(db, {
    id: newId(),
    at: clock.now(),
    actor_id: event.actorId ?? null,
    action: event.action,
    target_id: event.targetId ?? null,
    ip: event.ip ?? null,
    details: event.details ? JSON.stringify(event.details) : null,
  });
}
