import pg from 'pg';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../test/helpers.js';
import { createTestApp, signIn, TEST_DATABASE_URL, TestClient } from '../test/helpers.js';
import { DatabaseProxy } from './db-proxy.js';

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
