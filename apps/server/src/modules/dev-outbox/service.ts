import type { Db } from '../../db/connection.js';
import { renderRow } from '../../messaging/dispatcher.js';
import type { LetterSettings } from '../../messaging/templates.js';
import { listOutbox } from './repository.js';

/** The messages the outbox holds, newest first, rendered as their recipient gets them. */
export async function devOutboxMessages(
  db: Db,
  letter: LetterSettings,
  query: { to?: string | undefined; limit: number },
) {
  const rows = await listOutbox(db, query);
  return rows.map((row) => ({
    id: row.id,
    channel: row.channel,
    to: row.recipient,
    template: row.template,
    language: row.language,
    brand: row.brand,
    status: row.status,
    createdAt: new Date(row.created_at).toISOString(),
    ...renderRow(row, letter),
  }));
}
