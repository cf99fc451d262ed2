import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminMessageList } from '@hygie/domain';
import { enqueueMessage } from '../../messaging/outbox.js';
import type { TestApp } from '../../test/helpers.js';
import { createTestApp, createUser, DIALECTS, signIn, TestClient } from '../../test/helpers.js';

describe.each(DIALECTS)('the message queue for operators on %s', (dialect) => {
  let t: TestApp;
  let admin: TestClient;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    admin = new TestClient(t.app);
    await signIn(t, admin);
    await t.ctx.db.deleteFrom('outbox').execute();
  });
  afterAll(() => t.close());

  async function queue(
    channel: 'email' | 'sms',
    recipient: string,
    template: 'mfa_code' | 'account_locked',
    expiresAt?: number,
  ): Promise<string> {
    const id = await enqueueMessage(t.ctx.db, t.clock, {
      channel,
      recipient,
      template,
      language: 'fr',
      brand: 'hygie',
      params: template === 'mfa_code' ? { code: '424242' } : { contactEmail: 'dpo@hygie.test' },
      ...(expiresAt ? { expiresAt } : {}),
    });
    t.clock.advance(1_000);
    return id;
  }

  async function fail(id: string): Promise<void> {
    await t.ctx.db
      .updateTable('outbox')
      .set({ status: 'failed', attempts: 10, last_error: 'SMTP 550 mailbox unavailable' })
      .where('id', '=', id)
      .execute();
  }

  it('lists messages newest first, a page at a time, masked and without their codes', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push(await queue('email', `camille${i}@example.fr`, 'mfa_code', t.clock.now() + 600_000));
    }
    ids.push(await queue('sms', '+33612345678', 'mfa_code', t.clock.now() + 600_000));
    const first = await admin.get('/api/admin/messages?limit=4');
    expect(first.statusCode).toBe(200);
    const page = first.json<AdminMessageList>();
    expect(page.items.map((m) => m.id)).toEqual(ids.slice().reverse().slice(0, 4));
    expect(page.items[0]).toMatchObject({
      channel: 'sms',
      template: 'mfa_code',
      status: 'pending',
      attempts: 0,
      retryable: false,
    });
    expect(page.items[0]?.recipient).not.toContain('345678');
    expect(page.items[1]?.recipient).not.toContain('camille4');
    expect(first.body).not.toContain('424242');
    const second = await admin.get(`/api/admin/messages?limit=4&cursor=${page.nextCursor ?? ''}`);
    const rest = second.json<AdminMessageList>();
    expect(rest.items.map((m) => m.id)).toEqual(ids.slice().reverse().slice(4));
    expect(rest.nextCursor).toBeNull();
    const sms = await admin.get('/api/admin/messages?channel=sms');
    expect(sms.json<AdminMessageList>().items.map((m) => m.id)).toEqual([ids[5]]);
  });

  it('sends a failed notice again; refuses one that carried a code, and one not failed', async () => {
    const notice = await queue('email', 'locked@example.fr', 'account_locked');
    const code = await queue('email', 'code@example.fr', 'mfa_code', t.clock.now() + 600_000);
    await fail(notice);
    await fail(code);
    const failed = await admin.get('/api/admin/messages?status=failed');
    expect(failed.json<AdminMessageList>().items).toEqual([
      expect.objectContaining({ id: code, retryable: false }),
      expect.objectContaining({
        id: notice,
        retryable: true,
        lastError: 'SMTP 550 mailbox unavailable',
      }),
    ]);

    const refused = await admin.post(`/api/admin/messages/${code}/retry`, {});
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'message_not_retryable' });

    const retried = await admin.post(`/api/admin/messages/${notice}/retry`, {});
    expect(retried.statusCode).toBe(200);
    expect(retried.json()).toMatchObject({ id: notice, status: 'pending', attempts: 0 });
    // Already queued again: a second retry is refused, and the audit trail names the operator.
    expect((await admin.post(`/api/admin/messages/${notice}/retry`, {})).statusCode).toBe(409);
    expect((await admin.post('/api/admin/messages/nope/retry', {})).statusCode).toBe(404);
    const audit = await t.ctx.db
      .selectFrom('audit_events')
      .select(['actor_id', 'details'])
      .where('action', '=', 'message_retried')
      .execute();
    expect(audit).toHaveLength(1);
    expect(JSON.parse(audit[0]?.details ?? '{}')).toMatchObject({ messageId: notice });
    await t.dispatcher.runOnce();
    const sent = await t.ctx.db
      .selectFrom('outbox')
      .select('status')
      .where('id', '=', notice)
      .executeTakeFirstOrThrow();
    expect(sent.status).toBe('sent');
  });

  it('is for admins only', async () => {
    await createUser(t, {
      email: 'plain@hygie.test',
      password: 'Plain-Passw0rd!',
      phone: '+33612340000',
    });
    const user = new TestClient(t.app);
    await signIn(t, user, 'plain@hygie.test', 'Plain-Passw0rd!');
    expect((await user.get('/api/admin/messages')).statusCode).toBe(403);
    expect((await new TestClient(t.app).get('/api/admin/messages')).statusCode).toBe(401);
    expect((await admin.get('/api/admin/messages?status=lost')).statusCode).toBe(400);
    expect((await admin.get('/api/admin/messages?cursor=x')).statusCode).toBe(400);
  });
});
