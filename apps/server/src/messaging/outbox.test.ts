import http from 'node:http';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { TestApp } from '../test/helpers.js';
import { buildApp } from '../app.js';
import {
  createTestApp,
  DIALECTS,
  openTestDatabase,
  portOf,
  testConfig,
  TestClient,
} from '../test/helpers.js';
import { OutboxDispatcher, MAX_ATTEMPTS, backoffMs } from './dispatcher.js';
import { enqueueMessage } from './outbox.js';
import type { OutgoingMessage } from './outbox.js';
import type { Delivery, Transport } from './transports/types.js';
import { smtpTransport } from './transports/smtp.js';
import { smsHttpTransport } from './transports/sms-http.js';
import { letterSettings } from './templates.js';

const email = (to: string, code = '123456'): OutgoingMessage => ({
  channel: 'email',
  recipient: to,
  template: 'verification_code',
  language: 'fr',
  brand: 'hygie',
  params: { code },
});

class RecordingTransport implements Transport {
  readonly name = 'recording';
  readonly sent: Delivery[] = [];
  failuresLeft = 0;
  send(delivery: Delivery) {
    if (this.failuresLeft > 0) {
      this.failuresLeft--;
      return Promise.reject(new Error('gateway down'));
    }
    this.sent.push(delivery);
    return Promise.resolve();
  }
}

function dispatcherFor(t: TestApp, transport: Transport) {
  return new OutboxDispatcher({
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
}

describe.each(DIALECTS)('outbox on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  it('writes a message with the change that causes it, or not at all', async () => {
    await expect(
      t.ctx.db.transaction().execute(async (trx) => {
        await enqueueMessage(trx, t.clock, email('rollback@hygie.test'));
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    const rows = await t.ctx.db
      .selectFrom('outbox')
      .select('id')
      .where('recipient', '=', 'rollback@hygie.test')
      .execute();
    expect(rows).toHaveLength(0);
  });

  it('delivers a queued message once, then marks it sent', async () => {
    const transport = new RecordingTransport();
    const d = dispatcherFor(t, transport);
    await enqueueMessage(t.ctx.db, t.clock, email('once@hygie.test', '654321'));
    expect(await d.runOnce()).toBeGreaterThanOrEqual(1);
    expect(await d.runOnce()).toBe(0);
    const mine = transport.sent.filter((s) => s.recipient === 'once@hygie.test');
    expect(mine).toHaveLength(1);
    expect(mine[0]?.message.text).toContain('654321');
    const row = await t.ctx.db
      .selectFrom('outbox')
      .selectAll()
      .where('recipient', '=', 'once@hygie.test')
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('sent');
  });

  it('retries with backoff while the transport is down, losing nothing', async () => {
    const transport = new RecordingTransport();
    transport.failuresLeft = 2;
    const d = dispatcherFor(t, transport);
    await enqueueMessage(t.ctx.db, t.clock, email('retry@hygie.test'));
    await d.runOnce();
    const after1 = await t.ctx.db
      .selectFrom('outbox')
      .selectAll()
      .where('recipient', '=', 'retry@hygie.test')
      .executeTakeFirstOrThrow();
    expect(after1).toMatchObject({ status: 'pending', attempts: 1, last_error: 'gateway down' });
    expect(after1.next_attempt_at).toBe(t.clock.now() + backoffMs(1));
    expect(await d.runOnce()).toBe(0); // not due yet
    t.clock.advance(backoffMs(1));
    await d.runOnce();
    t.clock.advance(backoffMs(2));
    await d.runOnce();
    expect(transport.sent.filter((s) => s.recipient === 'retry@hygie.test')).toHaveLength(1);
  });

  it('marks a message failed (kept for the operators) after repeated failures', async () => {
    const transport = new RecordingTransport();
    transport.failuresLeft = Number.MAX_SAFE_INTEGER;
    const d = dispatcherFor(t, transport);
    await enqueueMessage(t.ctx.db, t.clock, email('dead@hygie.test'));
    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      await d.runOnce();
      t.clock.advance(60 * 60_000);
    }
    const row = await t.ctx.db
      .selectFrom('outbox')
      .selectAll()
      .where('recipient', '=', 'dead@hygie.test')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS });
  });

  it('never sends a message twice when several dispatchers run at once', async () => {
    const transports = [
      new RecordingTransport(),
      new RecordingTransport(),
      new RecordingTransport(),
    ];
    for (let i = 0; i < 30; i++)
      await enqueueMessage(t.ctx.db, t.clock, email(`race-${i}@hygie.test`));
    const dispatchers = transports.map((tr) => dispatcherFor(t, tr));
    for (let round = 0; round < 3; round++) await Promise.all(dispatchers.map((d) => d.runOnce()));
    const sent = transports
      .flatMap((tr) => tr.sent.map((s) => s.recipient))
      .filter((r) => r.startsWith('race-'));
    expect(sent).toHaveLength(30);
    expect(new Set(sent).size).toBe(30);
  });

  it('one message that cannot be rendered fails alone: the rest of the batch is sent', async () => {
    const transport = new RecordingTransport();
    const good = await enqueueMessage(t.ctx.db, t.clock, email('batch-ok@hygie.test'));
    const broken = await enqueueMessage(t.ctx.db, t.clock, email('batch-broken@hygie.test'));
    await t.ctx.db
      .updateTable('outbox')
      .set({ params: '{not json' })
      .where('id', '=', broken)
      .execute();
    await dispatcherFor(t, transport).runOnce(50);
    expect(transport.sent.map((s) => s.id)).toContain(good);
    const row = await t.ctx.db
      .selectFrom('outbox')
      .selectAll()
      .where('id', '=', broken)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'pending', attempts: 1, lease_owner: null });
    expect(row.last_error).toMatch(/JSON/);
  });

  it('a worker whose lease was taken over can neither re-queue nor settle the message', async () => {
    // The first worker's send hangs past its lease (only possible if a transport ignored its
    // deadline); a second worker claims the row again and delivers it.
    let release: (outcome: 'fail' | 'succeed') => void = () => {};
    const hanging: Transport = {
      name: 'hanging',
      send: () =>
        new Promise<void>((resolve, reject) => {
          release = (outcome) =>
            outcome === 'fail' ? reject(new Error('late failure')) : resolve();
        }),
    };
    const late = dispatcherFor(t, hanging);
    const id = await enqueueMessage(t.ctx.db, t.clock, email('lease@hygie.test'));
    const first = late.runOnce();
    await new Promise((resolve) => setTimeout(resolve, 50));
    t.clock.advance(10 * 60_000); // past the lease
    const other = new RecordingTransport();
    await dispatcherFor(t, other).runOnce();
    expect(other.sent.map((s) => s.id)).toContain(id);

    release('fail');
    await first;
    const row = await t.ctx.db
      .selectFrom('outbox')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    // Still as the second worker left it: sent, once, no error, not queued again.
    expect(row).toMatchObject({ status: 'sent', attempts: 1, last_error: null, lease_owner: null });
  });

  it('lists the dev outbox newest first, filtered by recipient', async () => {
    await enqueueMessage(t.ctx.db, t.clock, email('dev@hygie.test', '111111'));
    t.clock.advance(1000);
    await enqueueMessage(t.ctx.db, t.clock, {
      ...email('dev@hygie.test', '222222'),
      language: 'ar',
      brand: 'telecare',
    });
    const res = await new TestClient(t.app).get('/api/dev/outbox?to=dev@hygie.test');
    expect(res.statusCode).toBe(200);
    const list = res.json<{ text: string; html: string; language: string; subject: string }[]>();
    expect(list).toHaveLength(2);
    expect(list[0]?.text).toContain('222222');
    expect(list[0]?.html).toContain('dir="rtl"');
    expect(list[0]?.subject).toContain('Hygie Télésoin');
    expect(list[1]?.text).toContain('111111');
  });
});

const logLineSchema = z.object({ msg: z.string().optional() });

describe('the dev outbox, where messages are real', () => {
  it.each([
    [
      'in production',
      {
        NODE_ENV: 'production',
        SMTP_URL: 'smtp://127.0.0.1:1',
        SMS_GATEWAY_URL: 'http://127.0.0.1:1/sms',
      },
    ],
    [
      'in development with SMTP configured',
      { NODE_ENV: 'development', SMTP_URL: 'smtp://127.0.0.1:1' },
    ],
    [
      'in development with an SMS gateway configured',
      { NODE_ENV: 'development', SMS_GATEWAY_URL: 'http://127.0.0.1:1/sms' },
    ],
  ])('is absent %s', async (_case, env) => {
    const t = await createTestApp('sqlite', { env });
    try {
      const res = await new TestClient(t.app).get('/api/dev/outbox');
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'not_found' });
      expect(t.routes.map((r) => r.url)).not.toContain('/api/dev/outbox');
    } finally {
      await t.close();
    }
  });

  it.each([
    [{ NODE_ENV: 'development' }, /^dev outbox: served at \/api\/dev\/outbox/],
    [{ NODE_ENV: 'development', SMTP_URL: 'smtp://127.0.0.1:1' }, /^dev outbox: not served/],
  ])('says at start-up, in one log line, whether it is served (%o)', async (env, expected) => {
    const lines: string[] = [];
    const { handle, drop } = await openTestDatabase('sqlite');
    const built = await buildApp(testConfig({ ...env, LOG_LEVEL: 'info' }), {
      database: handle,
      logger: { stream: { write: (line: string) => lines.push(line) } },
    });
    await built.app.close();
    await drop();
    const said = lines
      .map((line) => logLineSchema.parse(JSON.parse(line)).msg ?? '')
      .filter((msg) => msg.startsWith('dev outbox:'));
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(expected);
  });

  it('is served in development without a real transport', async () => {
    const t = await createTestApp('sqlite', { env: { NODE_ENV: 'development' } });
    try {
      expect((await new TestClient(t.app).get('/api/dev/outbox')).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});

describe('real transports', () => {
  let smtp: SMTPServer;
  let smtpPort = 0;
  const received: { to: string; raw: string }[] = [];
  let gateway: http.Server;
  let gatewayPort = 0;
  const smsReceived: { body: unknown; auth: string | undefined }[] = [];
  let gatewayDown = false;

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        let raw = '';
        stream.on('data', (c: Buffer) => (raw += c.toString('utf8')));
        stream.on('end', () => {
          received.push({ to: session.envelope.rcptTo.map((r) => r.address).join(','), raw });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
    smtpPort = portOf(smtp.server);
    gateway = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        if (gatewayDown) {
          res.writeHead(503).end();
          return;
        }
        smsReceived.push({ body: JSON.parse(body), auth: req.headers.authorization });
        res.writeHead(202, { 'content-type': 'application/json' }).end('{"accepted":true}');
      });
    });
    await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', () => resolve()));
    gatewayPort = portOf(gateway);
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    await new Promise<void>((resolve) => gateway.close(() => resolve()));
  });

  it('sends an e-mail through a real SMTP server, code readable from the received mail', async () => {
    const t = await createTestApp('sqlite', {
      env: { SMTP_URL: `smtp://127.0.0.1:${smtpPort}`, SMTP_FROM: 'Hygie <no-reply@hygie.test>' },
    });
    try {
      await enqueueMessage(t.ctx.db, t.clock, email('smtp@hygie.test', '987654'));
      await t.dispatcher.runOnce();
      const mail = received.find((m) => m.to === 'smtp@hygie.test');
      expect(mail).toBeDefined();
      expect(mail?.raw).toMatch(/^Subject: \S/m);
      expect(mail?.raw).toMatch(/^Message-ID: <[0-9a-f-]+@hygie>/m);
      expect(mail?.raw).toContain('987654');
    } finally {
      await t.close();
    }
  });

  it('sends an SMS through the HTTP gateway, and retries while it answers 503', async () => {
    const transport = smsHttpTransport({
      url: `http://127.0.0.1:${gatewayPort}/sms`,
      token: 'secret-token',
      sender: 'Hygie',
      timeoutMs: 5_000,
    });
    const t = await createTestApp('sqlite', {
      deps: { transports: { email: transport, sms: transport } },
    });
    try {
      gatewayDown = true;
      await enqueueMessage(t.ctx.db, t.clock, {
        ...email('+33612345678', '246810'),
        channel: 'sms',
        language: 'en',
      });
      await t.dispatcher.runOnce();
      expect(smsReceived).toHaveLength(0);
      gatewayDown = false;
      t.clock.advance(backoffMs(1));
      await t.dispatcher.runOnce();
      expect(smsReceived).toEqual([
        {
          body: expect.objectContaining({
            to: '+33612345678',
            sender: 'Hygie',
            text: expect.stringContaining('246810'),
          }),
          auth: 'Bearer secret-token',
        },
      ]);
    } finally {
      await t.close();
    }
  });

  it('an unreachable SMTP server keeps the message pending', async () => {
    const transport = smtpTransport({
      url: 'smtp://127.0.0.1:1',
      from: 'Hygie <no-reply@hygie.test>',
      timeoutMs: 5_000,
    });
    const t = await createTestApp('sqlite', {
      deps: { transports: { email: transport, sms: transport } },
    });
    try {
      await enqueueMessage(t.ctx.db, t.clock, email('down@hygie.test'));
      await t.dispatcher.runOnce();
      const row = await t.ctx.db.selectFrom('outbox').selectAll().executeTakeFirstOrThrow();
      expect(row).toMatchObject({ status: 'pending', attempts: 1 });
    } finally {
      await t.close();
    }
  });
});
