import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.js';
import type { Config } from './config.js';
import { openDatabase } from './db/connection.js';
import { installDataKeys, seal } from './security/field-crypto.js';
import { TEST_DATA_KEYS, TEST_KEYRING } from './test/data-keys.js';
import type { TestApp } from './test/helpers.js';
import { signIn, TestClient, TestClock, testConfig } from './test/helpers.js';
import type { Patient } from './test/patients.js';
import {
  addAccounts,
  insNumber,
  keyIdsInUse,
  LONG_SESSIONS,
  PASSWORD,
  registerPatients,
  storedValues,
} from './test/patients.js';
import { QueryLog } from './test/query-log.js';

// `npm run data:rotate-key` as operators run it: its own process, on the SQLite file of a portal
// that keeps answering sign-ins by INS and profile edits meanwhile (issue 21).

const cli = path.join(import.meta.dirname, 'cli.ts');
const KEY_B = `t2:${Buffer.alloc(32, 11).toString('base64')}`;
const ROTATED_KEYS = `${KEY_B},${TEST_DATA_KEYS.encryption}`;

function cliEnv(dataDir: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    PUBLIC_URL: 'https://portal.example.fr',
    DATA_ENCRYPTION_KEY: ROTATED_KEYS,
    DATA_INDEX_KEY: TEST_DATA_KEYS.index,
  };
}

function run(dataDir: string, ...args: string[]) {
  return spawnSync(process.execPath, ['--import', 'tsx', cli, ...args], {
    env: cliEnv(dataDir),
    encoding: 'utf8',
  });
}

/** The command started in the background: resolves with its exit code and output when it ends. */
function start(dataDir: string, ...args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', cli, ...args], {
    env: cliEnv(dataDir),
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** The portal on `dataDir`'s SQLite file, started with `env`'s keys. */
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

describe('data:rotate-key on a running portal (SQLite)', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hygie-rotate-'));
  const clock = new TestClock();
  let t: TestApp;
  let patients: Patient[];
  beforeAll(async () => {
    // Written under key A (t1) alone.
    const before = await startPortal(dataDir, clock, {});
    await addAccounts(before, 150, 'before');
    patients = await registerPatients(before, 6, 'cli');
    await addAccounts(before, 150, 'after');
    await before.close();
    // Every node restarted with B first and A still configured.
    t = await startPortal(dataDir, clock, { DATA_ENCRYPTION_KEY: ROTATED_KEYS });
  }, 60_000);
  afterAll(async () => {
    await t.close();
    installDataKeys(TEST_KEYRING);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('re-seals everything under B while patients sign in by INS and edit their profile', async () => {
    const total = (await storedValues(t.ctx.db)).size;
    const check = run(dataDir, 'data:rotate-key', '--check');
    expect(check.status).toBe(0);
    expect(check.stdout).toBe(
      `active data key "t2": ${total} under "t1"; ${total} values to re-encrypt\n`,
    );
    expect(await keyIdsInUse(t.ctx.db)).toEqual({ t1: total });

    const clients = new Map<string, TestClient>();
    for (const patient of patients) {
      const client = new TestClient(t.app);
      expect(
        (await signIn(t, client, patient.ins, PASSWORD, { trustDevice: true })).statusCode,
      ).toBe(200);
      clients.set(patient.id, client);
    }
    let running = true;
    const rotation = start(dataDir, 'data:rotate-key', '--batch-size', '2').finally(() => {
      running = false;
    });
    const failures: string[] = [];
    const lastParentIns = new Map<string, string>();
    let requests = 0;
    await Promise.all(
      patients.map(async (patient, index) => {
        const client = clients.get(patient.id) ?? new TestClient(t.app);
        for (let round = 0; running || round === 0; round++) {
          const signedIn = await client.login(patient.ins, PASSWORD);
          if (signedIn.statusCode !== 200) failures.push(`sign-in: ${signedIn.body}`);
          const parentIns = insNumber(500 + index * 60 + (round % 60));
          const edit = await client.request({
            method: 'PATCH',
            url: '/api/profile',
            payload: { parentIns },
          });
          if (edit.statusCode === 200) lastParentIns.set(patient.id, parentIns);
          else failures.push(`edit: ${edit.body}`);
          requests += 2;
        }
      }),
    );
    const result = await rotation;
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(
      /^re-encrypted \d+ values with data key "t2" in \d+ batches; none left under an older key: the older keys can be removed from DATA_ENCRYPTION_KEY\n$/,
    );
    expect(failures).toEqual([]);
    expect(requests).toBeGreaterThan(patients.length * 2);
    expect(Object.keys(await keyIdsInUse(t.ctx.db))).toEqual(['t2']);
    for (const patient of patients) {
      const client = new TestClient(t.app);
      expect((await signIn(t, client, patient.ins, PASSWORD)).statusCode).toBe(200);
      const profile = (await client.get('/api/profile')).json<{ parentIns?: string | null }>();
      expect(profile.parentIns).toBe(lastParentIns.get(patient.id));
    }
  }, 120_000);

  it('counts what is left with --check, refuses a bad option, and refuses in one line, writing nothing, a key not configured', async () => {
    const total = (await storedValues(t.ctx.db)).size;
    const checked = run(dataDir, 'data:rotate-key', '--check', '--json');
    expect(checked.status).toBe(0);
    expect(JSON.parse(checked.stdout)).toEqual({
      activeKey: 't2',
      byKey: { t2: total },
      remaining: 0,
    });
    const usage = run(dataDir, 'data:rotate-key', '--batch-size', '0');
    expect(usage.status).toBe(2);
    expect(usage.stderr).toMatch(/^--batch-size "0": .+; run cli data:rotate-key --help\n$/);

    const [patient] = patients;
    if (!patient) throw new Error('no patient');
    const unknown = { keys: [{ id: 'c3', key: Buffer.alloc(32, 13) }], index: TEST_KEYRING.index };
    await t.ctx.db
      .updateTable('users')
      .set({ sex: seal(unknown, `users.sex:${patient.id}`, 'female') })
      .where('id', '=', patient.id)
      .execute();
    const before = await storedValues(t.ctx.db);
    const refused = run(dataDir, 'data:rotate-key');
    expect(refused.status).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(
      new RegExp(
        `^1 values are sealed with data key "c3", which is not configured \\(users\\.sex of account ${patient.id}\\): add it to DATA_ENCRYPTION_KEY; nothing was re-encrypted\\n$`,
      ),
    );
    expect(await storedValues(t.ctx.db)).toEqual(before);
  }, 120_000);
});
