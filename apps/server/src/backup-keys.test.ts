// Issue 21, backups: a backup holds ciphertexts and no key; the keys are backed up apart. Restored
// together onto a fresh machine, the patient signs in by INS and reads it back; restored without
// them (or with other keys), the portal refuses to start in one line and writes nothing.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.js';
import { ConfigError } from './config.js';
import type { Dialect } from './db/connection.js';
import { installDataKeys } from './security/field-crypto.js';
import type { FreshDatabase } from './test/backup.js';
import { backupScript, contents, freshDatabase, startPortal } from './test/backup.js';
import { TEST_KEYRING } from './test/data-keys.js';
import { DIALECTS, signIn, TestClient, TestClock, testConfig } from './test/helpers.js';
import { LONG_SESSIONS, PASSWORD, registerPatients } from './test/patients.js';
import { serverEntry, STARTUP_MS } from './test/server-process.js';

const key = () => randomBytes(32).toString('base64');

/** The key files of one machine, as docs/deployment.md has them made (mode 0640 in a 0750 dir). */
function writeKeyFiles(dir: string, keys: { data: string; index: string }) {
  fs.mkdirSync(dir, { recursive: true, mode: 0o750 });
  fs.writeFileSync(path.join(dir, 'data-key'), `${keys.data}\n`, { mode: 0o640 });
  fs.writeFileSync(path.join(dir, 'index-key'), `${keys.index}\n`, { mode: 0o640 });
}

/** The server's key variables pointing at a machine's key files (the values themselves unset). */
function keyFileEnv(dir: string): Record<string, string> {
  return {
    DATA_ENCRYPTION_KEY: '',
    DATA_INDEX_KEY: '',
    DATA_ENCRYPTION_KEY_FILE: path.join(dir, 'data-key'),
    DATA_INDEX_KEY_FILE: path.join(dir, 'index-key'),
  };
}

/** The backup's bytes as text: the SQLite file itself, or a PostgreSQL dump's SQL (uncompressed). */
function backupText(file: string, dialect: Dialect): string {
  if (dialect === 'sqlite') return fs.readFileSync(file).toString('latin1');
  const sqlText = spawnSync('pg_restore', ['--file=-', file], { encoding: 'utf8' });
  expect(sqlText.status).toBe(0);
  return sqlText.stdout;
}

/** `server.ts` started on the restored database; it must refuse: its exit code and error lines. */
async function refusedStart(database: FreshDatabase, dataDir: string, env: Record<string, string>) {
  const { DATABASE_URL: _url, ...inherited } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', serverEntry], {
    env: {
      ...inherited,
      NODE_ENV: 'test',
      PORT: '0',
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      ...database.env,
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { code, lines: stderr.trim().split('\n') };
}

afterAll(() => installDataKeys(TEST_KEYRING));

describe.each(DIALECTS)('a backup and its keys, restored on %s', (dialect) => {
  it(
    'restores ciphertexts and keys apart: with both the patient signs in by INS and reads it; without them or with others the start is refused in one line, writing nothing',
    async () => {
      const machine = fs.mkdtempSync(path.join(os.tmpdir(), 'hygie-restore-keys-'));
      const source = await freshDatabase(dialect);
      const target = await freshDatabase(dialect);
      const keys = { data: `k1:${key()}`, index: key() };
      const file = path.join(machine, dialect === 'sqlite' ? 'hygie.sqlite' : 'hygie.pgdump');
      try {
        // The first machine: keys in files outside DATA_DIR, a patient registered with an INS.
        const keysDir = path.join(machine, 'etc-keys');
        writeKeyFiles(keysDir, keys);
        const clock = new TestClock();
        const running = await startPortal(
          dialect,
          source,
          testConfig({ ...keyFileEnv(keysDir), ...LONG_SESSIONS }),
          clock,
        );
        const [patient] = await registerPatients(running, 1, 'restored');
        if (!patient) throw new Error('no patient');
        try {
          expect(backupScript(source.env, 'backup', file).status).toBe(0);
        } finally {
          await running.close();
        }
        // The backup holds ciphertexts, and no key.
        const inBackup = backupText(file, dialect);
        expect(inBackup).toContain(patient.email);
        expect(inBackup).not.toContain(patient.ins);
        expect(inBackup).not.toContain('1980-05-17');
        for (const secret of [keys.data.slice(3), keys.index]) {
          expect(inBackup).not.toContain(secret);
          expect(inBackup).not.toContain(Buffer.from(secret, 'base64').toString('latin1'));
        }
        // The keys are backed up apart (the security officer's safe), then the machine is lost.
        const safe = path.join(machine, 'safe');
        fs.mkdirSync(safe, { mode: 0o700 });
        for (const name of ['data-key', 'index-key']) {
          fs.copyFileSync(path.join(keysDir, name), path.join(safe, name));
        }
        fs.rmSync(keysDir, { recursive: true });
        await source.drop();

        // A new machine: the database restored into a fresh DATA_DIR / an empty database.
        const dataDir = target.env.DATA_DIR ?? path.join(machine, 'data-restored');
        fs.mkdirSync(dataDir, { recursive: true });
        expect(backupScript(target.env, 'restore', file).status).toBe(0);
        const restoredHandle = target.open;
        const restored = restoredHandle();
        const before = await contents(restored);
        await restored.close();

        // Without the keys: refused in one line, no key generated, nothing written.
        const withoutKeys = await refusedStart(target, dataDir, {
          DATA_ENCRYPTION_KEY: '',
          DATA_INDEX_KEY: '',
        });
        expect(withoutKeys.code).toBe(2);
        expect(withoutKeys.lines).toEqual([
          `Invalid configuration: DATA_ENCRYPTION_KEY is not configured and ${path.join(dataDir, 'data-keys.json')} does not exist, but this database holds values sealed with data key "k1": restore the keys backed up with it (docs/deployment.md, Backup and restore)`,
        ]);
        expect(fs.existsSync(path.join(dataDir, 'data-keys.json'))).toBe(false);

        // With other keys: refused in one line naming the variable, whichever key is wrong.
        const wrongData = `k1:${key()}`;
        const otherKeys: [Record<string, string>, string][] = [
          [
            { DATA_ENCRYPTION_KEY: `k9:${key()}`, DATA_INDEX_KEY: keys.index },
            'Invalid configuration: DATA_ENCRYPTION_KEY holds none of the keys this database\'s values are sealed with ("k1"): restore the keys backed up with it (docs/deployment.md, Backup and restore)',
          ],
          [
            { DATA_ENCRYPTION_KEY: wrongData, DATA_INDEX_KEY: keys.index },
            'Invalid configuration: DATA_ENCRYPTION_KEY: key "k1" is not the key this database knows by that id (its check value does not open)',
          ],
          [
            { DATA_ENCRYPTION_KEY: keys.data, DATA_INDEX_KEY: key() },
            'Invalid configuration: DATA_INDEX_KEY is not the key this database’s INS index was built with (its check value differs; an index-key change keeps the old key after the new one until data:rotate-key --index ends)',
          ],
        ];
        for (const [env, line] of otherKeys) {
          const database = restoredHandle();
          try {
            const start = buildApp(testConfig({ DATA_DIR: dataDir, ...env }), {
              database,
              clock: new TestClock(clock.now()),
              logger: false,
            });
            await expect(start).rejects.toThrow(ConfigError);
            await expect(start).rejects.toThrow(new RegExp(`^${escapeRegExp(line)}$`));
          } finally {
            await database.close();
          }
        }
        const after = restoredHandle();
        try {
          expect(await contents(after)).toEqual(before);
        } finally {
          await after.close();
        }

        // The keys restored from the safe onto the new machine, then the portal started.
        const newKeys = path.join(machine, 'etc-keys-new');
        fs.mkdirSync(newKeys, { mode: 0o750 });
        for (const name of ['data-key', 'index-key']) {
          fs.copyFileSync(path.join(safe, name), path.join(newKeys, name));
        }
        const portal = await startPortal(
          dialect,
          target,
          testConfig({
            DATA_DIR: dataDir,
            ADMIN_EMAIL: '',
            ADMIN_PASSWORD: '',
            ...keyFileEnv(newKeys),
            ...LONG_SESSIONS,
          }),
          new TestClock(clock.now()),
        );
        try {
          const client = new TestClient(portal.app);
          expect((await signIn(portal, client, patient.ins, PASSWORD)).statusCode).toBe(200);
          const profile = await client.get('/api/profile');
          expect(profile.statusCode).toBe(200);
          expect(profile.json<{ ins: string | null; birthDate: string | null }>()).toMatchObject({
            ins: patient.ins,
            birthDate: '17/05/1980',
          });
        } finally {
          await portal.close();
        }
      } finally {
        await source.drop();
        await target.drop();
        fs.rmSync(machine, { recursive: true, force: true });
      }
    },
    STARTUP_MS + 60_000,
  );
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
