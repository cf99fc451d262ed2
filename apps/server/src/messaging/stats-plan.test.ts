import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../test/helpers.js';
import { createTestApp, DIALECTS } from '../test/helpers.js';
import { explainAsPlanned } from '../test/query-log.js';
import { SEEDED_CHANNELS, seededMessage, seedOutbox } from '../test/seeded-outbox.js';
import { outboxStats } from './outbox.js';

// Every metrics scrape counts the outbox's waiting and given-up messages by channel. The outbox
// keeps 30 days of every message sent: the counts must read the ranges of those statuses, and
// the given-up ones on index entries alone (30 days of failures), with the planner's own settings,
// as the server leaves SQLite (no statistics) and analysed. One statement for both statuses,
// grouped by channel and status, read every failed message's row and sorted them for the groups
// (17 ms a scrape at a million messages, 315 ms on a table analysed without samples;
// bench/lists.mjs).
const MESSAGES = 20_000;
describe.each(DIALECTS)('the metrics’ outbox counts on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    await seedOutbox(t, MESSAGES);
  });
  afterAll(() => t.close());

  it('count the waiting and given-up messages by channel through ranges of the due index', async () => {
    const now = t.clock.now();
    const expected = SEEDED_CHANNELS.map((channel) => {
      const rows = Array.from({ length: MESSAGES }, (_, i) =>
        seededMessage(i, now, MESSAGES),
      ).filter((m) => m.channel === channel);
      const pending = rows.filter((m) => m.status === 'pending');
      return {
        channel,
        pending: pending.length,
        oldestPendingSeconds: (now - Math.min(...pending.map((m) => m.created_at))) / 1000,
        failed: rows.filter((m) => m.status === 'failed').length,
      };
    });
    let stats: Awaited<ReturnType<typeof outboxStats>> = [];
    const queries = await t.queries.during(async () => {
      stats = await outboxStats(t.ctx.db, t.clock);
    });
    expect(stats).toEqual(expected);
    expect(queries).toHaveLength(2);
    for (const statistics of ['none', 'analysed']) {
      if (statistics === 'analysed') await sql`analyze outbox`.execute(t.ctx.db);
      for (const query of queries) {
        const plan = await explainAsPlanned(t.ctx.db, dialect, query);
        if (dialect === 'sqlite') {
          // The status's range for each channel, counted (and the oldest found) on index entries
          // alone: the due index, or the queue's by status and channel (migration 0028).
          expect(plan).toMatch(
            /^SEARCH outbox USING COVERING INDEX (outbox_channel_due_idx|outbox_status_channel_created_idx) \((channel=\? AND status=\?|status=\? AND channel=\?)\)/,
          );
          expect(plan).not.toMatch(/SCAN outbox|TEMP B-TREE/);
        } else {
          expect(plan).toMatch(/Index (Only )?Scan .*\n\s+Index Cond: .*status/);
          expect(plan).not.toMatch(/Seq Scan|Sort/);
        }
      }
    }
  });
});
