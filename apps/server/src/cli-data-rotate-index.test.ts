import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.js';
import type { Config } from './config.js';
import { openDatabase } from './db/connection.js';
import { installDataKeys } from './security/field-crypto.js';
import { TEST_DATA_KEYS, TEST_KEYRING } from './test/data-keys.js';
import type { TestApp } from './test/helpers.js';
import { TestClient, TestClock, testConfig } from './test/helpers.js';
import type { Patient } from './test/patients.js';
import { LONG_SESSIONS, PASSWORD, registerPatients } from './test/patients.js';
import { QueryLog } from './test/query-log.js';

// `npm run data:rotate-key -- --index` as operators run it: its own process, on the SQLite file of
// a portal that keeps answering sign-ins by INS meanwhile (issue 21).

const cli = path.join(import.meta.dirname, 'cli.ts');
const NEW_INDEX = Buffer.alloc(32, 23).toString('base64');
const BOTH = `${NEW_INDEX},${TEST_DATA_KEYS.index}`;

function cliEnv(dataDir: string, indexKey: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    PUBLIC_URL: 'https://portal.example.fr',
    DATA_ENCRYPTION_KEY: TEST_DATA_KEYS.encryption,
    DATA_INDEX_KEY: indexKey,
  };
}

function run(dataDir: string, indexKey: string, ...args: string[]) {
  return spawnSync(process.execPath, ['--import', 'tsx', cli, ...args], {
    env: cliEnv(dataDir, indexKey),
    encoding: 'utf8',
  });
}

/** The command started in the background: resolves with its exit code and output when it ends. */
function start(dataDir: string, ...args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', cli, ...args], {
    env: cliEnv(dataDir, BOTH),
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

async function startPortal(dataDir: string, clock: TestClock, env: Record<string, string>) {
  const config: Config = testConfig({ DATA_DIR: dataDir, ...LONG_SESSIONS, ...env });
  const built = await buildApp(config, {
    database: openDatabase(config.database),
    clock,
    logger: false,
  });
  const t: TestApp = {
    ...built,
    clock,
    queries: new QueryLog(),
    dialect: 'sqlite',
    reopenDatabase: () => openDatabase(config.database),
    close: () => built.app.close(),
  };
  return t;
}

describe('data:rotate-key --index on a running portal (SQLite)', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hygie-reindex-'));
  const clock = new TestClock();
  let t: TestApp;
  let patients: Patient[];
  beforeAll(async () => {
    const before = await startPortal(dataDir, clock, {});
    patients = await registerPatients(before, 6, 'cli-index');
    await before.close();
    // Every node restarted with the new index key first, the old one after it.
    t = await startPortal(dataDir, clock, { DATA_INDEX_KEY: BOTH });
  }, 60_000);
  afterAll(async () => {
    await t.close();
    installDataKeys(TEST_KEYRING);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('counts, rebuilds a batch, then the rest while patients sign in by INS, and moves the check value', async () => {
    const check = run(dataDir, BOTH, 'data:rotate-key', '--index', '--check');
    expect(check.stderr).toBe('');
    expect(check.stdout).toBe(
      'INS indexes: 6, of which 6 to rebuild under the first DATA_INDEX_KEY; the index check value still names a former key\n',
    );
    const one = run(
      dataDir,
      BOTH,
      'data:rotate-key',
      '--index',
      '--batch-size',
      '2',
      '--max-batches',
      '1',
    );
    expect(one.status).toBe(0);
    expect(one.stdout).toBe(
      'rebuilt 2 INS indexes under the first DATA_INDEX_KEY in 1 batches; 4 left: run it again to continue\n',
    );

    let running = true;
    const rebuild = start(dataDir, 'data:rotate-key', '--index', '--batch-size', '1').finally(
      () => {
        running = false;
      },
    );
    const failures: string[] = [];
    let signIns = 0;
    await Promise.all(
      patients.map(async (patient) => {
        const client = new TestClient(t.app);
        for (let round = 0; running || round === 0; round++) {
          const res = await client.login(patient.ins, PASSWORD);
          const code = res.json<{ code?: string }>().code;
          if (code !== 'two_factor_authentication_required') {
            failures.push(`${res.statusCode} ${res.body}`);
          }
          signIns += 1;
        }
      }),
    );
    const result = await rebuild;
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(
      'rebuilt 4 INS indexes under the first DATA_INDEX_KEY in 4 batches; none left under a former key, and the index check value names the new key: the former keys can be removed from DATA_INDEX_KEY\n',
    );
    expect(failures).toEqual([]);
    expect(signIns).toBeGreaterThan(patients.length);

    // The old key alone no longer opens the door; the new one alone does.
    const old = run(dataDir, TEST_DATA_KEYS.index, 'data:rotate-key', '--index', '--check');
    expect(old.status).toBe(2);
    expect(old.stderr).toMatch(
      /^Invalid configuration: DATA_INDEX_KEY is not the key this database’s INS index was built with \(.*\)\n$/,
    );
    const fresh = run(dataDir, NEW_INDEX, 'data:rotate-key', '--index', '--check', '--json');
    expect(fresh.status).toBe(0);
    expect(JSON.parse(fresh.stdout)).toEqual({ indexes: 6, remaining: 0, checkValueMoved: true });
  }, 180_000);
});
