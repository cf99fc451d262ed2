import pg from 'pg';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../test/helpers.js';
import { createTestApp, signIn, TEST_DATABASE_URL, TestClient } from '../test/helpers.js';
import { OutboxDispatcher } from '../messaging/dispatcher.js';
import { enqueueMessage } from '../messaging/outbox.js';
import type { Transport } from '../messaging/transports/types.js';
import { DatabaseProxy } from './db-proxy.js';
import { letterSettings } from '../messaging/templates.js';

// PostgreSQL going away under load — connections killed by the server, the network to it cut, a
// statement that cannot finish — answers 503 with Retry-After and the translated message, never
// 500, and the node serves again as soon as the database is back, without a restart.

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const APPLICATION = 'hygie-fault-suite';

/** Requests from several clients at once until `stop`; returns every answer's status. */
function load(t: TestApp, signedIn: TestClient) {
  const answers: LightMyRequestResponse[] = [];
  let stop = false;
  const anonymous = new TestClient(t.app);
  const workers = [
    ...Array.from({ length: 4 }, () => async () => {
      while (!stop) answers.push(await signedIn.get('/api/me'));
    }),
    async () => {
      while (!stop) {
        answers.push(
          await anonymous.post('/api/login', {
            username: 'nobody@hygie.test',
            password: 'Wr0ng-pass',
          }),
        );
      }
    },
  ];
  const running = Promise.all(workers.map((w) => w()));
  return {
    answers,
    async end() {
      stop = true;
      await running;
      return answers;
    },
  };
}

function expectOnly503sAsFailures(answers: LightMyRequestResponse[]) {
  const statuses = new Set(answers.map((a) => a.statusCode));
  expect([...statuses].filter((s) => ![200, 401, 429, 503].includes(s))).toEqual([]);
  const unavailable = answers.filter((a) => a.statusCode === 503);
  for (const answer of unavailable) {
    expect(answer.headers['retry-after']).toBe('5');
    expect(answer.json()).toEqual({
      code: 'service_unavailable',
      message: 'Service momentanément indisponible.',
    });
  }
  return unavailable.length;
}

describe.skipIf(!TEST_DATABASE_URL)('a database outage on PostgreSQL', () => {
  const target = new URL(TEST_DATABASE_URL ?? 'postgres://localhost');
  let proxy: DatabaseProxy;
  let t: TestApp;
  let client: TestClient;
  let admin: pg.Client;

  beforeAll(async () => {
    proxy = await new DatabaseProxy({
      host: target.hostname,
      port: Number(target.port || 5432),
    }).listen();
    const url = new URL(proxy.url(TEST_DATABASE_URL ?? ''));
    url.searchParams.set('application_name', APPLICATION);
    t = await createTestApp('postgres', { databaseUrl: url.href, statementTimeoutMs: 1_000 });
    client = new TestClient(t.app);
    await signIn(t, client);
    admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
  });
  afterAll(async () => {
    await admin.end();
    await t.close();
    await proxy.close();
  });

  it('the network to the database cut for a while: only 503s, then served again without a restart', async () => {
    const traffic = load(t, client);
    await sleep(300);
    proxy.cut();
    await sleep(1_500);
    proxy.restore();
    await sleep(1_500);
    const answers = await traffic.end();
    expect(expectOnly503sAsFailures(answers)).toBeGreaterThan(0);
    expect((await client.get('/api/me')).statusCode).toBe(200);
    expect((await client.get('/api/ready')).statusCode).toBe(200);
  });

  it('the OpenID Connect provider during the outage: 503 temporarily_unavailable, never server_error', async () => {
    proxy.cut();
    try {
      const authorize = await t.app.inject({
        method: 'GET',
        url: '/oidc/auth?client_id=some-platform&response_type=code&scope=openid&redirect_uri=https%3A%2F%2Fplatform.test%2Fcb',
        headers: { accept: 'text/html' },
      });
      expect(authorize.statusCode).toBe(303);
      const page = new URL(authorize.headers.location ?? '', 'http://localhost');
      expect(page.pathname).toBe('/oauth-error');
      expect(page.searchParams.get('error')).toBe('temporarily_unavailable');

      const token = await t.app.inject({
        method: 'POST',
        url: '/oidc/token',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        payload:
          'grant_type=authorization_code&code=x&client_id=some-platform&client_secret=s&redirect_uri=https%3A%2F%2Fplatform.test%2Fcb',
      });
      expect(token.statusCode).toBe(503);
      expect(token.headers['retry-after']).toBe('5');
      expect(token.json()).toMatchObject({ error: 'temporarily_unavailable' });
    } finally {
      proxy.restore();
    }
    await sleep(200);
    expect((await client.get('/api/me')).statusCode).toBe(200);
  });

  it('every connection killed by the server (pg_terminate_backend), twice: only 503s, then served again', async () => {
    const traffic = load(t, client);
    for (let i = 0; i < 2; i++) {
      await sleep(400);
      const killed = await admin.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1',
        [APPLICATION],
      );
      expect(killed.rowCount).toBeGreaterThan(0);
    }
    await sleep(800);
    const answers = await traffic.end();
    expectOnly503sAsFailures(answers);
    expect(answers.filter((a) => a.statusCode === 200).length).toBeGreaterThan(10);
    expect((await client.get('/api/me')).statusCode).toBe(200);
  });

  it('the database lost mid-batch: each sent message is still recorded sent, none sent twice', async () => {
    const sent = new Map<string, number>();
    const transport: Transport = {
      name: 'recording',
      send: async (delivery) => {
        sent.set(delivery.id, (sent.get(delivery.id) ?? 0) + 1);
        // The database goes away between the send and its record.
        await admin.query(
          'select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1',
          [APPLICATION],
        );
      },
    };
    const dispatcher = new OutboxDispatcher({
      db: t.ctx.db,
      dialect: 'postgres',
      clock: t.clock,
      letter: letterSettings(t.ctx.config),
      log: t.app.log,
      transports: { email: transport, sms: transport },
      pollMs: 50,
      sendTimeoutMs: 5_000,
      concurrency: 4,
    });
    const ids: string[] = [];
    for (let n = 0; n < 6; n++) {
      ids.push(
        await enqueueMessage(t.ctx.db, t.clock, {
          channel: n % 2 ? 'sms' : 'email',
          recipient: n % 2 ? `+3361234567${n}` : `batch-${n}@hygie.test`,
          template: 'sign_in_notice',
          language: 'fr',
          brand: 'hygie',
          params: { date: 'now', lockUrl: 'http://localhost/lock' },
        }),
      );
    }
    dispatcher.start();
    const deadline = Date.now() + 20_000;
    for (;;) {
      const rows = await t.ctx.db
        .selectFrom('outbox')
        .select(['id', 'status'])
        .where('id', 'in', ids)
        .execute()
        .catch(() => []);
      if (rows.length === ids.length && rows.every((r) => r.status === 'sent')) break;
      if (Date.now() > deadline) throw new Error('the batch was not recorded in time');
      await sleep(100);
    }
    await dispatcher.stop();
    // (Messages queued by earlier tests' sign-ins go out too.)
    expect(ids.every((id) => sent.get(id) === 1)).toBe(true);
    expect([...sent.values()].every((n) => n === 1)).toBe(true);
  });

  it('a statement that cannot finish is cancelled by the statement time-out: 503, not a hung request', async () => {
    await admin.query('begin');
    try {
      await admin.query(`lock table ${await schemaOf(t)}.sessions in access exclusive mode`);
      const started = Date.now();
      const answer = await client.get('/api/me');
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(answer.statusCode).toBe(503);
      expect(answer.headers['retry-after']).toBe('5');
    } finally {
      await admin.query('rollback');
    }
    expect((await client.get('/api/me')).statusCode).toBe(200);
  });
});

/** The schema the test app's tables live in (its connections' search_path). */
async function schemaOf(t: TestApp): Promise<string> {
  const row = await t.ctx.db
    .selectNoFrom((eb) => eb.fn<string>('current_schema').as('schema'))
    .executeTakeFirstOrThrow();
  return row.schema;
}
