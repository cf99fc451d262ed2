import type { Db } from '../../db/connection.js';

/** Messages to people (e-mail, SMS) in the outbox, newest first, optionally for one recipient. */
export function listOutbox(db: Db, query: { to?: string | undefined; limit: number }) {
  return db
    .selectFrom('outbox')
    .selectAll()
    .where('channel', 'in', ['email', 'sms'])
    .$narrowType<{ channel: 'email' | 'sms' }>()
    .$if(query.to !== undefined, (qb) => qb.where('recipient', '=', query.to ?? ''))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(query.limit)
    .execute();
}
