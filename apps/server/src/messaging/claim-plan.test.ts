import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../test/helpers.js';
import { createTestApp, DIALECTS } from '../test/helpers.js';
import { explain } from '../test/query-log.js';

// Every node claims due messages of each channel once per poll while idle: the claim must find
// them through the channel's due index, never by reading the whole outbox (which keeps every
// message sent).
describe.each(DIALECTS)('outbox claim plan on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  it('finds due messages of a channel through outbox_channel_due_idx', async () => {
    const queries = await t.queries.during(() => t.dispatcher.runOnce());
    const claims = queries.filter((q) => /^update "outbox" set "locked_until"/.test(q.sql));
    expect(claims).toHaveLength(3); // e-mail, SMS, then platforms' logout notices
    for (const claim of claims) {
      const plan = await explain(t.ctx.db, dialect, claim);
      if (dialect === 'sqlite') {
        expect(plan).toMatch(/SEARCH outbox USING INDEX outbox_channel_due_idx/);
        expect(plan).not.toMatch(/SCAN outbox/);
      } else {
        expect(plan).toMatch(/Index (Only )?Scan using outbox_channel_due_idx/);
        expect(plan).not.toMatch(/Seq Scan/);
      }
    }
  });
});
