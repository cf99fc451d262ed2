// scripts/backup.mjs (`npm run backup`), end to end: a backup taken while the portal runs,
// restored into a fresh database, on which the portal starts and a user signs in.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrateToLatest } from './db/migrate.js';
import { backupScript, contents, freshDatabase, startPortal } from './test/backup.js';
import { createUser, DIALECTS, signIn, TestClient, TestClock, testConfig } from './test/helpers.js';

const PATIENT = { email: 'restored.patient@hygie.test', password: 'Backup-Restore-2026!' };

describe.each(DIALECTS)('backup and restore on %s', (dialect) => {
  it('restores a backup taken while the portal runs into a fresh database, where a user signs in', async () => {
    const source = await freshDatabase(dialect);
    const target = await freshDatabase(dialect);
    const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hygie-backup-file-'));
    const file = path.join(workDir, dialect === 'sqlite' ? 'hygie.sqlite' : 'hygie.pgdump');
    try {
      // A portal in use: an account, a signed-in session, messages, audit events.
      const clock = new TestClock();
      const running = await startPortal(dialect, source, testConfig(), clock);
      let before: Awaited<ReturnType<typeof contents>>;
      const client = new TestClient(running.app);
      try {
        await createUser(running, { ...PATIENT, phone: '+33612345678' });
        expect((await signIn(running, client, PATIENT.email, PATIENT.password)).statusCode).toBe(
          200,
        );
        before = await contents(running.ctx.database);
        expect(before.rows.users).toBe(2); // the admin of ADMIN_EMAIL and the patient
        expect(before.rows.sessions).toBe(1);
        expect(before.rows.outbox).toBeGreaterThan(0);
        expect(before.settings.map((s) => s.key)).toEqual(
          expect.arrayContaining(['internal.secret', 'internal.oidc_jwks']),
        );
        if (source.sqliteFile) {
          // What the running portal wrote sits in the write-ahead log, not yet in the main file.
          expect(fs.statSync(`${source.sqliteFile}-wal`).size).toBeGreaterThan(0);
        }

        const backup = backupScript(source.env, 'backup', file);
        expect(backup.stderr).toBe('');
        expect(backup.status).toBe(0);
        expect(backup.stdout.trim()).toBe(file);
        // It holds password hashes, the server secret and the signing keys.
        expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      } finally {
        await running.close();
      }

      const restore = backupScript(target.env, 'restore', file);
      expect(restore.stderr).toBe('');
      expect(restore.status).toBe(0);
      // A second restore would overwrite a database: refused without --force.
      const again = backupScript(target.env, 'restore', file);
      expect(again.status).toBe(1);
      expect(again.stderr).toMatch(/exists|has \d+ tables/);

      // The restored database is the one backed up: same rows, same secret and keys, and no
      // migration left to apply.
      const restored = target.open();
      try {
        expect(await migrateToLatest(restored)).toEqual([]);
        expect(await contents(restored)).toEqual(before);
      } finally {
        await restored.close();
      }

      // The portal starts on it (without ADMIN_EMAIL: every account comes from the backup).
      const portal = await startPortal(
        dialect,
        target,
        testConfig({ ADMIN_EMAIL: '', ADMIN_PASSWORD: '' }),
        new TestClock(clock.now()),
      );
      try {
        // The session opened before the backup is still valid…
        const sameBrowser = new TestClient(portal.app);
        for (const [name, value] of client.cookies) sameBrowser.cookies.set(name, value);
        const me = await sameBrowser.get('/api/me');
        expect(me.statusCode).toBe(200);
        expect(me.json<{ email: string }>().email).toBe(PATIENT.email);
        // …and the patient signs in afresh: password, then the second factor by e-mail.
        const fresh = new TestClient(portal.app);
        expect((await signIn(portal, fresh, PATIENT.email, PATIENT.password)).statusCode).toBe(200);
        expect((await fresh.get('/api/me')).statusCode).toBe(200);
      } finally {
        await portal.close();
      }
    } finally {
      await source.drop();
      await target.drop();
      fs.rmSync(workDir, { recursive: true, force: true });
    }
    // Two new databases migrated, two portals started, three processes (node, pg_dump,
    // pg_restore) waited for: 21 s on a slow 2-core runner, over 30 s when it is loaded. The
    // time-out only bounds a hung run.
  }, 120_000);
});
