import type { Db } from '../../db/connection.js';

/** Outbox rows, newest first, optionally for one recipient. */
export function listOutbox(db: Db, query: { to?: string | undefined; limit: number }) {
  return db
    .selectFrom('outbox')
    .selectAll()
    .$if(query.to !== undefined, (qb) => qb.where('recipient', '=', query.to ?? ''))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(query.limit)
    .execute();
}
