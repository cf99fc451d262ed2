import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/helpers.js';
import { createTestApp, DIALECTS } from '../../test/helpers.js';
import { anonymiseAuditEventsOf, insertAuditEvent } from './repository.js';

// An erased person's trail: which events lose their addresses, read through two index ranges
// (docs/performance.md "Every hot path's statements, explained").
describe.each(DIALECTS)('the trail of an erased person on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  it('removes the addresses of what the person caused and of what nobody caused about them, keeps the others’', async () => {
    const at = t.clock.now();
    const events: [id: string, actor: string | null, target: string | null][] = [
      ['own-sign-in', 'leaving', 'leaving'],
      ['failed-sign-in', null, 'leaving'],
      ['consent-to-platform', 'leaving', 'platform-1'],
      ['without-target', 'leaving', null],
      ['admin-about-them', 'admin', 'leaving'],
      ['admin-about-another', 'admin', 'staying'],
      ['another-sign-in', 'staying', 'staying'],
      ['nobody-about-another', null, 'staying'],
    ];
    for (const [id, actor, target] of events) {
      await insertAuditEvent(t.ctx.db, {
        id,
        at,
        actor_id: actor,
        action: 'login',
        target_id: target,
        ip: '203.0.113.9',
        details: null,
        request_id: null,
        user_agent: 'Firefox',
      });
    }
    await anonymiseAuditEventsOf(t.ctx.db, 'leaving');
    const rows = await t.ctx.db
      .selectFrom('audit_events')
      .select(['id', 'ip', 'user_agent'])
      .where(
        'id',
        'in',
        events.map(([id]) => id),
      )
      .execute();
    const erased = rows
      .filter((r) => r.ip === null && r.user_agent === null)
      .map((r) => r.id)
      .sort();
    expect(erased).toEqual([
      'consent-to-platform',
      'failed-sign-in',
      'own-sign-in',
      'without-target',
    ]);
    expect(rows.filter((r) => r.ip === '203.0.113.9')).toHaveLength(4);
  });
});
