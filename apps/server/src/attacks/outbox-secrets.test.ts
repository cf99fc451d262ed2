import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboxDispatcher, MAX_ATTEMPTS } from '../messaging/dispatcher.js';
import { enqueueMessage } from '../messaging/outbox.js';
import { devOutboxTransport } from '../messaging/transports/dev-outbox.js';
import type { Delivery, Transport } from '../messaging/transports/types.js';
import type { TestApp } from '../test/helpers.js';
import { createTestApp, DIALECTS, messagesTo } from '../test/helpers.js';
import { letterSettings } from '../messaging/templates.js';

// Attacker suite (security issue, point 11): a copy of the database (a backup, a read replica, a
// leaked dump) must not hold usable codes and links of messages already delivered.
class Relay implements Transport {
  readonly name = 'relay';
  readonly delivered: Delivery[] = [];
  failing = false;
  send(delivery: Delivery): Promise<void> {
    if (this.failing) return Promise.reject(new Error('relay down'));
    this.delivered.push(delivery);
    return Promise.resolve();
  }
}

describe.each(DIALECTS)('secrets of settled messages on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  const dispatcherWith = (transport: Transport) =>
    new OutboxDispatcher({
      db: t.ctx.db,
      dialect: t.dialect,
      clock: t.clock,
      letter: letterSettings(t.ctx.config),
      log: t.app.log,
      transports: { email: transport, sms: transport },
      pollMs: 60_000,
      sendTimeoutMs: 5_000,
      concurrency: 4,
    });

  const queue = (to: string) =>
    enqueueMessage(t.ctx.db, t.clock, {
      channel: 'email',
      recipient: to,
      template: 'sign_in_notice',
      language: 'fr',
      brand: 'hygie',
      params: {
        date: '2026-11-23 10:00 UTC',
        device: 'Firefox',
        ip: '203.0.113.7',
        lockUrl: 'https://portal.example.fr/security/lock-account?code=LOCK-TOKEN',
      },
    });

  it('are gone from the outbox once a real transport delivered them', async () => {
    const relay = new Relay();
    await queue('sent@example.fr');
    await dispatcherWith(relay).runOnce();
    expect(relay.delivered[0]?.message.text).toContain('LOCK-TOKEN');
    const [stored] = await messagesTo(t, 'sent@example.fr');
    expect(stored?.status).toBe('sent');
    expect(stored?.params.lockUrl).toBe('[redacted]');
    expect(JSON.stringify(stored)).not.toContain('LOCK-TOKEN');
    expect(stored?.params.device).toBe('Firefox');
  });

  it('are gone once delivery is given up', async () => {
    const relay = new Relay();
    relay.failing = true;
    await queue('never@example.fr');
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      await dispatcherWith(relay).runOnce();
      t.clock.advance(24 * 3600_000);
    }
    const [stored] = await messagesTo(t, 'never@example.fr');
    expect(stored?.status).toBe('failed');
    expect(JSON.stringify(stored)).not.toContain('LOCK-TOKEN');
  });

  it('stay readable while delivery is still being tried, and in the dev outbox', async () => {
    const relay = new Relay();
    relay.failing = true;
    await queue('retry@example.fr');
    await dispatcherWith(relay).runOnce();
    expect((await messagesTo(t, 'retry@example.fr'))[0]?.params.lockUrl).toContain('LOCK-TOKEN');

    await queue('dev@example.fr');
    await dispatcherWith(devOutboxTransport(() => {})).runOnce();
    const [dev] = await messagesTo(t, 'dev@example.fr');
    expect(dev?.status).toBe('sent');
    expect(dev?.params.lockUrl).toContain('LOCK-TOKEN');
  });
});
