import type { Db } from '../../db/connection.js';
import type { OutboxRow } from '../../db/schema.js';

export interface MessagePageQuery {
  status?: OutboxRow['status'] | undefined;
  channel?: OutboxRow['channel'] | undefined;
  /** The last row of the previous page: rows strictly older come next. */
  after?: { createdAt: number; id: string } | undefined;
  limit: number;
}

/**
 * A page of the outbox, newest first (keyset on created_at, id), the next page by a row
 * comparison: one range of the (…, created_at, id) index, on both databases.
 */
export function listMessages(db: Db, query: MessagePageQuery): Promise<OutboxRow[]> {
  const { after } = query;
  return db
    .selectFrom('outbox')
    .selectAll()
    .$if(query.status !== undefined, (qb) => qb.where('status', '=', query.status ?? 'pending'))
    .$if(query.channel !== undefined, (qb) => qb.where('channel', '=', query.channel ?? 'email'))
    .$if(after !== undefined, (qb) =>
      qb.where((eb) =>
        eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(after?.createdAt ?? 0, after?.id ?? '')),
      ),
    )
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(query.limit)
    .execute();
}

export function findMessage(db: Db, id: string): Promise<OutboxRow | undefined> {
  return db.selectFrom('outbox').selectAll().where('id', '=', id).executeTakeFirst();
}
