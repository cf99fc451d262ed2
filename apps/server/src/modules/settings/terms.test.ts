import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/helpers.js';
import { createTestApp, DIALECTS } from '../../test/helpers.js';
import { loadSettings, publishTerms } from './service.js';

describe.each(DIALECTS)('publishing a terms version on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  it('puts the version in force, dated today on the clock unless a date is given', async () => {
    t.clock.current = Date.parse('2027-03-14T23:30:00Z');
    await publishTerms(t.ctx, { version: '2027-03' }, null);
    let settings = await loadSettings(t.ctx, t.ctx.db);
    expect(settings.CGU_VERSION).toBe('2027-03');
    expect(settings.CGU_PUBLISHED_AT).toBe('2027-03-14');

    await publishTerms(t.ctx, { version: '2027-04', publishedAt: '2027-04-01' }, null);
    settings = await loadSettings(t.ctx, t.ctx.db);
    expect([settings.CGU_VERSION, settings.CGU_PUBLISHED_AT]).toEqual(['2027-04', '2027-04-01']);
  });
});
