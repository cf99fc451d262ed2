import type { Db, Dialect } from '../db/connection.js';
import type { NewOutbox, OutboxRow } from '../db/schema.js';

// The outbox table's SQL: queued by the change that causes a message, claimed and settled by the
// dispatcher.

export async function insertOutboxRow(db: Db, row: NewOutbox): Promise<void> {
  await db.insertInto('outbox').values(row).execute();
}

/**
 * Leases up to `limit` due messages until `lockedUntil`; on PostgreSQL rows another node holds are
 * skipped (FOR UPDATE SKIP LOCKED), so no message is claimed twice.
 */
export function claimDueMessages(
  db: Db,
  dialect: Dialect,
  now: number,
  lockedUntil: number,
  limit: number,
): Promise<OutboxRow[]> {
  return db
    .updateTable('outbox')
    .set({ locked_until: lockedUntil })
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('outbox')
        .select('id')
        .where('status', '=', 'pending')
        .where('next_attempt_at', '<=', now)
        .where((w) => w.or([w('locked_until', 'is', null), w('locked_until', '<', now)]))
        .orderBy('next_attempt_at')
        .limit(limit)
        .$if(dialect === 'postgres', (qb) => qb.forUpdate().skipLocked()),
    )
    .returningAll()
    .execute();
}

/** Settles a delivered message; `params` replaces the stored ones (without their secrets). */
export async function markMessageSent(
  db: Db,
  id: string,
  sent: { sentAt: number; attempts: number; params?: string },
): Promise<void> {
  const { sentAt, attempts, params } = sent;
  await db
    .updateTable('outbox')
    .set({
      status: 'sent',
      sent_at: sentAt,
      locked_until: null,
      attempts,
      ...(params ? { params } : {}),
    })
    .where('id', '=', id)
    .execute();
}

export async function markMessageAttemptFailed(
  db: Db,
  id: string,
  outcome: {
    failed: boolean;
    attempts: number;
    nextAttemptAt: number;
    lastError: string;
    params?: string;
  },
): Promise<void> {
  await db
    .updateTable('outbox')
    .set({
      ...(outcome.params ? { params: outcome.params } : {}),
      status: outcome.failed ? 'failed' : 'pending',
      attempts: outcome.attempts,
      next_attempt_at: outcome.nextAttemptAt,
      locked_until: null,
      last_error: outcome.lastError,
    })
    .where('id', '=', id)
    .execute();
}
