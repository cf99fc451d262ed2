import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { serverEntry, STARTUP_MS, startServerProcess } from './test/server-process.js';

/** Runs `server.ts` until it exits (a start that is refused): its exit code and error output. */
async function refusedStart(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', serverEntry], {
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { code, lines: stderr.trim().split('\n') };
}

const key = () => randomBytes(32).toString('base64');

describe('the server process and its data keys', () => {
  it(
    'refuses to start in production without a data key, in one line naming the variable',
    async () => {
      const { code, lines } = await refusedStart({
        NODE_ENV: 'production',
        DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'hygie-nokey-')),
        SMTP_URL: 'smtp://mail.example.fr:587',
        SMS_GATEWAY_URL: 'https://sms.example.fr/send',
        DATA_ENCRYPTION_KEY: '',
        DATA_ENCRYPTION_KEY_FILE: '',
        DATA_INDEX_KEY: '',
        DATA_INDEX_KEY_FILE: '',
      });
      expect(code).toBe(2);
      expect(lines).toEqual([
        'Invalid configuration: NODE_ENV=production needs DATA_ENCRYPTION_KEY (or DATA_ENCRYPTION_KEY_FILE): see docs/deployment.md',
      ]);
    },
    STARTUP_MS,
  );

  it(
    'refuses to start with another data key than the database was sealed with, in one line',
    async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hygie-wrongkey-'));
      const index = key();
      try {
        const env = { DATA_DIR: dataDir, DATA_INDEX_KEY: index, LOG_LEVEL: 'silent' };
        const first = await startServerProcess({ ...env, DATA_ENCRYPTION_KEY: `k1:${key()}` });
        first.child.kill('SIGTERM');
        expect(await first.exited).toBe(0);
        const wrong = key();
        const { code, lines } = await refusedStart({
          ...env,
          NODE_ENV: 'test',
          PORT: '0',
          DATA_ENCRYPTION_KEY: `k1:${wrong}`,
        });
        expect(code).toBe(2);
        expect(lines).toEqual([
          'Invalid configuration: DATA_ENCRYPTION_KEY: key "k1" is not the key this database knows by that id (its check value does not open)',
        ]);
        expect(lines.join()).not.toContain(wrong);
      } finally {
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
    STARTUP_MS * 2,
  );
});
