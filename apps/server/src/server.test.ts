import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { serverEntry, STARTUP_MS, startServerProcess } from './test/server-process.js';

describe('the server process', () => {
  it(
    'finishes in-flight requests on SIGTERM, then exits 0',
    async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hygie-sigterm-'));
      const { child, exited, base } = await startServerProcess({
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        SHUTDOWN_GRACE_MS: '700',
        ADMIN_EMAIL: 'admin@hygie.test',
        ADMIN_PASSWORD: 'Correct-Horse-42',
      });
      try {
        const first = await fetch(`${base}/api/health`);
        const xsrf = /XSRF-TOKEN=([^;]+)/.exec(first.headers.get('set-cookie') ?? '')?.[1] ?? '';
        // Logins cost an argon2 verification each: several are in flight when SIGTERM arrives.
        // Five: one client gets no more parallel password checks than its free attempts
        // (attacks/lockout.test.ts), and these all come from the same address.
        const inFlight = Array.from({ length: 5 }, () =>
          fetch(`${base}/api/login`, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              cookie: `XSRF-TOKEN=${xsrf}`,
              'x-xsrf-token': xsrf,
            },
            body: JSON.stringify({ username: 'admin@hygie.test', password: 'Correct-Horse-42' }),
          }).then((r) => r.status),
        );
        await new Promise((r) => setTimeout(r, 20));
        child.kill('SIGTERM');
        // While draining, the node reports itself unready but still answers. The signal's delivery
        // takes its time on a loaded machine: ask until the answer changes (the logins in flight
        // keep the node up meanwhile).
        let ready = 200;
        for (let tries = 0; ready === 200 && tries < 100; tries++) {
          await new Promise((r) => setTimeout(r, 20));
          ready = (await fetch(`${base}/api/ready`)).status;
        }
        expect(ready).toBe(503);
        const statuses = await Promise.all(inFlight);
        // Each login is answered in full (its next stage is the second factor): none was cut off.
        expect(statuses).toEqual(Array(5).fill(401));
        expect(await exited).toBe(0);
        await expect(fetch(`${base}/api/health`)).rejects.toThrow();
      } finally {
        child.kill('SIGKILL');
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
    STARTUP_MS + 30_000,
  );

  it(
    'checkpoints its SQLite log on a thread of its own, shows it in the metrics, leaves no log when it stops',
    async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hygie-checkpoints-'));
      const token = 'scraper-token-0123456789abcdef';
      const { child, exited, base } = await startServerProcess({
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        METRICS_TOKEN: token,
      });
      try {
        // The start-up's writes (migrations, settings, keys) are in the log; the worker's first
        // checkpoint, a second on, reports it.
        const logPages = async () => {
          const res = await fetch(`${base}/metrics`, {
            headers: { authorization: `Bearer ${token}` },
          });
          const line = (await res.text())
            .split('\n')
            .find((l) => l.startsWith('hygie_sqlite_wal_pages{state="log"}'));
          return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
        };
        await expect.poll(logPages, { timeout: 10_000 }).toBeGreaterThan(0);
        child.kill('SIGTERM');
        expect(await exited).toBe(0);
        // The worker's connection closed first, the writer's last: everything checkpointed.
        expect(fs.existsSync(path.join(dataDir, 'hygie.sqlite'))).toBe(true);
        expect(fs.existsSync(path.join(dataDir, 'hygie.sqlite-wal'))).toBe(false);
      } finally {
        child.kill('SIGKILL');
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
    STARTUP_MS + 15_000,
  );

  it(
    'refuses to start on invalid configuration, naming the variable',
    async () => {
      const child = spawn(process.execPath, ['--import', 'tsx', serverEntry], {
        env: {
          ...process.env,
          PORT: 'not-a-port',
          PUBLIC_URL: 'ftp://portal.example',
          DATABASE_URL: 'mysql://hygie:s3cret@db/hygie',
          LOG_LEVEL: 'silent',
        },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(code).toBe(2);
      // One line per bad variable: its name, what was given (credentials masked), what is accepted.
      expect(stderr.trim().split('\n').sort()).toEqual([
        'Invalid configuration: DATABASE_URL="mysql://***@db/hygie": must be a postgres:// URL',
        'Invalid configuration: PORT="not-a-port": expected a port number, 0 to 65535',
        'Invalid configuration: PUBLIC_URL="ftp://portal.example": expected an http:// or https:// URL',
      ]);
      expect(stderr).not.toContain('s3cret');
    },
    STARTUP_MS,
  );
});
