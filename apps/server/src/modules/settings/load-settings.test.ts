import { CODES } from '@hygie/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '../../db/connection.js';
import type { TestApp } from '../../test/helpers.js';
import { createTestApp, DIALECTS, testConfig } from '../../test/helpers.js';
import { loadSettings, resetSetting, saveSetting } from './service.js';

// loadSettings reads the stored rows at every call: a change made by any node (or the CLI) applies
// at the next read, without a cache to invalidate. These tests are what a cache of the settings
// would have to keep true (one was tried, docs/performance.md, and not kept).

describe.each(DIALECTS)('the settings in force on %s', (dialect) => {
  let t: TestApp;
  let other: DbHandle;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    // A second node on the same database.
    other = t.reopenDatabase();
  });
  afterAll(async () => {
    await other.close();
    await t.close();
  });

  it("applies another node's change at the next read, and its reset", async () => {
    expect((await loadSettings(t.ctx)).TRUSTED_DEVICE_DAYS).toBe(30);
    await saveSetting(other.db, 'TRUSTED_DEVICE_DAYS', 12, null, t.clock.now());
    expect((await loadSettings(t.ctx)).TRUSTED_DEVICE_DAYS).toBe(12);
    await saveSetting(other.db, 'TRUSTED_DEVICE_DAYS', 7, null, t.clock.now());
    expect((await loadSettings(t.ctx)).TRUSTED_DEVICE_DAYS).toBe(7);
    await resetSetting(other.db, 'TRUSTED_DEVICE_DAYS');
    expect((await loadSettings(t.ctx)).TRUSTED_DEVICE_DAYS).toBe(30);
  });

  it('keeps a damaged stored value out, and applies its repair', async () => {
    await other.db
      .insertInto('settings')
      .values({ key: 'CODE_TTL', value: '{not json', updated_by: null, updated_at: 0 })
      .execute();
    expect((await loadSettings(t.ctx)).CODE_TTL).toBe(CODES.ttlSeconds);
    await saveSetting(other.db, 'CODE_TTL', 120, null, t.clock.now());
    expect((await loadSettings(t.ctx)).CODE_TTL).toBe(120);
    await resetSetting(other.db, 'CODE_TTL');
  });

  it("reads a transaction's own change inside it", async () => {
    await t.ctx.db.transaction().execute(async (trx) => {
      await saveSetting(trx, 'TRUSTED_DEVICE_DAYS', 45, null, t.clock.now());
      expect((await loadSettings(t.ctx, trx)).TRUSTED_DEVICE_DAYS).toBe(45);
      await resetSetting(trx, 'TRUSTED_DEVICE_DAYS');
    });
    expect((await loadSettings(t.ctx)).TRUSTED_DEVICE_DAYS).toBe(30);
  });

  it("builds each configuration's defaults apart", async () => {
    const shortSessions = { ...t.ctx, config: testConfig({ SESSION_IDLE_TIMEOUT: '600' }) };
    expect((await loadSettings(shortSessions)).SESSION_IDLE_TIMEOUT).toBe(600);
    expect((await loadSettings(t.ctx)).SESSION_IDLE_TIMEOUT).toBe(t.ctx.config.session.idleSeconds);
    expect(t.ctx.config.session.idleSeconds).not.toBe(600);
  });
});
