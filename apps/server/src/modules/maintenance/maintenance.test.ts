import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/helpers.js';
import { createTestApp, createUser, DIALECTS, signIn, TestClient } from '../../test/helpers.js';
import { insertOutboxRow } from '../../messaging/repository.js';
import { changeSetting } from '../admin/service.js';
import { purgeExpired } from './service.js';

const DAY = 24 * 60 * 60_000;

describe.each(DIALECTS)('data retention on %s', (dialect) => {
  let t: TestApp;
  const count = async (
    table: 'sessions' | 'trusted_devices' | 'one_time_codes' | 'audit_events' | 'outbox',
  ) =>
    Number(
      (
        await t.ctx.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<string | number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    t = await createTestApp(dialect);
    await createUser(t, {
      email: 'kept@hygie.test',
      password: 'Kept-Passw0rd-1',
      phone: '+33657000088',
    });
    const person = new TestClient(t.app);
    expect(
      (await signIn(t, person, 'kept@hygie.test', 'Kept-Passw0rd-1', { trustDevice: true }))
        .statusCode,
    ).toBe(200);
    // A message still waiting (a relay down for long): never purged, whatever its age.
    await insertOutboxRow(t.ctx.db, {
      id: 'waiting-message',
      channel: 'email',
      recipient: 'kept@hygie.test',
      template: 'password_changed',
      language: 'fr',
      brand: 'hygie',
      params: '{}',
      status: 'pending',
      attempts: 3,
      next_attempt_at: t.clock.now(),
      locked_until: null,
      lease_owner: null,
      expires_at: null,
      last_error: 'relay down',
      created_at: t.clock.now(),
      sent_at: null,
    });
    await t.ctx.db
      .updateTable('outbox')
      .set({ status: 'sent' })
      .where('id', '!=', 'waiting-message')
      .execute();
  });
  afterAll(() => t.close());

  it('keeps everything still in use', async () => {
    const before = await purgeExpired(t.ctx);
    expect(before.sessions + before.trustedDevices + before.messages + before.auditEvents).toBe(0);
    expect(await count('sessions')).toBeGreaterThan(0);
  });

  it('after two days: expired sessions, codes and links go; browsers, messages and the trail stay', async () => {
    const devices = await count('trusted_devices');
    const events = await count('audit_events');
    t.clock.advance(2 * DAY);
    const purged = await purgeExpired(t.ctx);
    expect(purged.sessions).toBeGreaterThan(0);
    expect(purged.codes).toBeGreaterThan(0);
    expect(await count('sessions')).toBe(0);
    expect(await count('one_time_codes')).toBe(0);
    expect(await count('trusted_devices')).toBe(devices);
    expect(await count('audit_events')).toBe(events);
    expect(purged.messages).toBe(0);
  });

  it('after a month: trusted browsers and settled messages go, a waiting message stays', async () => {
    t.clock.advance(31 * DAY);
    const purged = await purgeExpired(t.ctx);
    expect(purged.trustedDevices).toBeGreaterThan(0);
    expect(purged.messages).toBeGreaterThan(0);
    expect(await count('trusted_devices')).toBe(0);
    const left = await t.ctx.db.selectFrom('outbox').select('id').execute();
    expect(left).toEqual([{ id: 'waiting-message' }]);
    expect(purged.auditEvents).toBe(0);
  });

  it('keeps the trail for AUDIT_RETENTION (one year by default, shortened by an admin)', async () => {
    await changeSetting(t.ctx, 'AUDIT_RETENTION', 30 * 24 * 3600, { userId: 'admin-x', ip: null });
    const purged = await purgeExpired(t.ctx);
    expect(purged.auditEvents).toBeGreaterThan(0);
    const left = await t.ctx.db.selectFrom('audit_events').select('action').execute();
    expect(left).toEqual([{ action: 'setting_changed' }]);
    expect((await purgeExpired(t.ctx)).auditEvents).toBe(0);
  });

  it('a session kept alive by its use goes at its absolute expiry, not later', async () => {
    const userId = await createUser(t, {
      email: 'alive@hygie.test',
      password: 'Alive-Passw0rd-1',
      phone: '+33657000089',
    });
    const person = new TestClient(t.app);
    expect((await signIn(t, person, 'alive@hygie.test', 'Alive-Passw0rd-1')).statusCode).toBe(200);
    const session = () =>
      t.ctx.db
        .selectFrom('sessions')
        .select(['idle_expires_at', 'absolute_expires_at'])
        .where('user_id', '=', userId)
        .executeTakeFirst();
    const { idleSeconds } = t.ctx.config.session;
    const opened = await session();
    if (!opened) throw new Error('no session');
    // Used more often than its idle time-out, until that would take it past its absolute expiry.
    while (t.clock.now() + idleSeconds * 1000 < opened.absolute_expires_at) {
      t.clock.advance(idleSeconds * 400);
      expect((await person.get('/api/me')).statusCode).toBe(200);
    }
    expect((await session())?.idle_expires_at).toBe(opened.absolute_expires_at);
    t.clock.current = opened.absolute_expires_at - 1;
    await purgeExpired(t.ctx);
    expect(await session()).toBeDefined();
    t.clock.current = opened.absolute_expires_at + 1;
    expect((await purgeExpired(t.ctx)).sessions).toBe(1);
    expect(await session()).toBeUndefined();
  });
});
