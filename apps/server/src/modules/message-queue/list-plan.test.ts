import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OutboxRow } from '../../db/schema.js';
import type { TestApp } from '../../test/helpers.js';
import { createTestApp, DIALECTS } from '../../test/helpers.js';
import { explainAsPlanned } from '../../test/query-log.js';
import { seedOutbox } from '../../test/seeded-outbox.js';
import type { MessagePageQuery } from './repository.js';
import { listMessages } from './repository.js';

// The operator's message queue keeps 30 days of every message: each page, with each filter, is
// one range of one index read in the page's order (newest first), with the planners' own
// settings — on SQLite as the portal keeps it (no statistics) and analysed, on PostgreSQL
// analysed. Filtered by a status and a channel, the page walked the channel's index and read each
// message's row for its status: every SMS when none had failed (119 ms at a million messages on
// SQLite; bench/lists.mjs), until migration 0028.
const MESSAGES = 20_000;

const STATISTICS = ['without statistics', 'analysed'] as const;

describe.each(DIALECTS)('the message queue’s pages on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    await seedOutbox(t, MESSAGES);
  });
  afterAll(() => t.close());

  // In order: the table analysed only once its plans without statistics are checked. PostgreSQL's
  // autovacuum analyses a grown table: its plans are checked analysed only.
  describe.each(dialect === 'sqlite' ? STATISTICS : (['analysed'] as const))('%s', (statistics) => {
    beforeAll(async () => {
      if (statistics === 'analysed') await sql`analyze outbox`.execute(t.ctx.db);
    });

    it.each<[string, Omit<MessagePageQuery, 'limit' | 'after'>, RegExp]>([
      ['every message', {}, /outbox_created_idx/],
      ['a status', { status: 'failed' }, /outbox_status_created_idx/],
      // A channel is a third of the queue: PostgreSQL may walk the time order and skip the others.
      ['a channel', { channel: 'sms' }, /outbox_(channel_)?created_idx/],
      ['a status and a channel', { status: 'failed', channel: 'sms' }, /outbox_status_channel_/],
      [
        'a common status and a channel',
        { status: 'sent', channel: 'email' },
        /outbox_status_channel_/,
      ],
    ])('%s: one index range in the page’s order, the next page too', async (_, filters, index) => {
      let after: MessagePageQuery['after'];
      for (const page of [1, 2]) {
        let rows: OutboxRow[] = [];
        const queries = await t.queries.during(async () => {
          rows = await listMessages(t.ctx.db, { ...filters, after, limit: 5 });
        });
        expect(rows).toHaveLength(5);
        for (const row of rows) {
          if (filters.status) expect(row.status).toBe(filters.status);
          if (filters.channel) expect(row.channel).toBe(filters.channel);
        }
        expect(queries).toHaveLength(1);
        const plan = await explainAsPlanned(t.ctx.db, dialect, queries[0]!);
        expect(plan, `page ${page}`).toMatch(index);
        if (dialect === 'sqlite') {
          expect(plan).not.toMatch(/^SCAN outbox$|TEMP B-TREE/m);
        } else {
          expect(plan).toMatch(/Index (Only )?Scan/);
          expect(plan).not.toMatch(/Seq Scan|Sort|Bitmap/);
        }
        const last = rows.at(-1);
        if (last) after = { createdAt: last.created_at, id: last.id };
      }
    });
  });
});
