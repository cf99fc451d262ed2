import type { Db } from '../../db/connection.js';
import { kept } from '../../db/connection.js';
import type { Slots } from '../../db/precompiled.js';
import { precompiled } from '../../db/precompiled.js';
import type { AuditEventTable } from '../../db/schema.js';

const auditEventInserted = precompiled((db: Db, $: Slots<AuditEventTable>) =>
  kept(
    db.insertInto('audit_events').values({
      id: $('id'),
      at: $('at'),
      actor_id: $('actor_id'),
      action: $('action'),
      target_id: $('target_id'),
      ip: $('ip'),
      details: $('details'),
      request_id: $('request_id'),
      user_agent: $('user_agent'),
    } satisfies Record<keyof AuditEventTable, unknown>),
  ),
);

export async function insertAuditEvent(db: Db, event: AuditEventTable): Promise<void> {
  await auditEventInserted.run(db, event);
}

/** The last events about a user (`target_id`, indexed), newest first. */
export function listAuditEventsAbout(db: Db, userId: string, limit: number) {
  return db
    .selectFrom('audit_events')
    .selectAll()
    .where('target_id', '=', userId)
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** When one of these actions last happened to the user, if ever. */
export async function lastAuditEventAt(
  db: Db,
  userId: string,
  actions: readonly string[],
): Promise<number | null> {
  const row = await db
    .selectFrom('audit_events')
    .select((eb) => eb.fn.max('at').as('at'))
    .where('target_id', '=', userId)
    .where('action', 'in', actions)
    .executeTakeFirst();
  return row?.at === null || row?.at === undefined ? null : Number(row.at);
}

/**
 * An erased account's trail keeps what happened and when, not who was there: the addresses and
 * user agents of the events the person caused (or that nobody else caused about them, such as a
 * failed sign-in) are removed. Events an admin caused keep the admin's. Two index ranges, not the
 * trail (a year of every sign-in's events): the events about the person that they or nobody
 * caused (`audit_events_target_idx`), and those they caused about something else
 * (`audit_events_actor_others_idx`, which holds only such events: a sign-in's own are about the
 * person who caused them, and cost it nothing). Run both in the erasure's transaction.
 */
export async function anonymiseAuditEventsOf(db: Db, userId: string): Promise<void> {
  const erased = { ip: null, user_agent: null };
  await db
    .updateTable('audit_events')
    .set(erased)
    .where('target_id', '=', userId)
    .where((eb) => eb.or([eb('actor_id', '=', userId), eb('actor_id', 'is', null)]))
    .execute();
  await db
    .updateTable('audit_events')
    .set(erased)
    .where('actor_id', '=', userId)
    .where((eb) => eb.or([eb('target_id', 'is', null), eb('target_id', '<>', eb.ref('actor_id'))]))
    .execute();
}

export interface AuditFilter {
  targetId?: string;
  action?: string;
  /** Only these actions (a person's own activity). */
  actions?: readonly string[];
  /** Epoch ms, included. */
  from?: number;
  /** Epoch ms, excluded. */
  before?: number;
  /** The last event of the previous page (keyset: newest first). */
  after?: { at: number; id: string };
}

/**
 * Events newest first, filtered; keyset pages on (at, id), the next page by a row comparison: one
 * range of the (…, at, id) index the filter picks, on both databases.
 */
export function listAuditEvents(db: Db, filter: AuditFilter, limit: number) {
  const { targetId, action, actions, from, before, after } = filter;
  return db
    .selectFrom('audit_events')
    .selectAll()
    .$if(targetId !== undefined, (qb) => qb.where('target_id', '=', targetId ?? ''))
    .$if(action !== undefined, (qb) => qb.where('action', '=', action ?? ''))
    .$if(actions !== undefined, (qb) => qb.where('action', 'in', actions ?? []))
    .$if(from !== undefined, (qb) => qb.where('at', '>=', from ?? 0))
    .$if(before !== undefined, (qb) => qb.where('at', '<', before ?? 0))
    .$if(after !== undefined, (qb) =>
      qb.where((eb) => eb(eb.refTuple('at', 'id'), '<', eb.tuple(after?.at ?? 0, after?.id ?? ''))),
    )
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** Retention: events older than `before` (epoch ms) go; returns how many. */
export async function deleteAuditEventsBefore(db: Db, before: number): Promise<number> {
  const result = await db.deleteFrom('audit_events').where('at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Every event about a user, newest first (the person's data export; retention bounds it). */
export function allAuditEventsAbout(db: Db, userId: string) {
  return db
    .selectFrom('audit_events')
    .selectAll()
    .where('target_id', '=', userId)
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}
