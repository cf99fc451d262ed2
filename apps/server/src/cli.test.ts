import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from './db/connection.js';

const cli = path.join(import.meta.dirname, 'cli.ts');
function run(dataDir: string, ...args: string[]) {
  return spawnSync(process.execPath, ['--import', 'tsx', cli, ...args], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      PUBLIC_URL: 'https://portal.example.fr',
    },
    encoding: 'utf8',
  });
}

describe('operator commands', () => {
  it('invites a person (printing the first-login link), publishes terms, and refuses bad usage', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hygie-cli-'));
    try {
      const invite = run(dataDir, 'invite', '--email', 'New.Admin@Example.fr', '--admin');
      expect(invite.status).toBe(0);
      expect(invite.stdout.trim()).toMatch(
        /^https:\/\/portal\.example\.fr\/security\/first-login\?personIdentifier=[0-9a-f-]{36}&email=new\.admin%40example\.fr&code=[\w-]{43}$/,
      );
      expect(run(dataDir, 'invite', '--email', 'new.admin@example.fr').stderr).toContain(
        'email_already_used',
      );
      const usage = run(dataDir, 'invite');
      expect(usage.status).toBe(2);
      expect(usage.stderr).toContain('usage:');
      expect(
        run(dataDir, 'cgu:publish', '--version', '2027-01', '--date', '2027-01-01').status,
      ).toBe(0);

      const db = openDatabase({ kind: 'sqlite', file: path.join(dataDir, 'hygie.sqlite') });
      const user = await db.db
        .selectFrom('users')
        .select(['roles', 'must_create_password', 'password_hash'])
        .executeTakeFirstOrThrow();
      expect(user).toEqual({ roles: '["admin"]', must_create_password: 1, password_hash: null });
      const setting = await db.db
        .selectFrom('settings')
        .select('value')
        .where('key', '=', 'CGU_VERSION')
        .executeTakeFirstOrThrow();
      expect(JSON.parse(setting.value)).toBe('2027-01');
      await db.close();
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 240_000); // five tsx start-ups: each takes seconds, many on a loaded machine

  it('adds a platform printing its discovery URL under PUBLIC_URL, and rotates signing keys with their delays', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hygie-cli-'));
    try {
      const added = run(
        dataDir,
        'platform:add',
        '--name',
        'Téléconsultation',
        '--url',
        'https://tele.example.fr',
        '--redirect-uri',
        'https://tele.example.fr/callback',
      );
      expect(added.status).toBe(0);
      expect(added.stdout).toContain(
        'discovery: https://portal.example.fr/oidc/.well-known/openid-configuration',
      );
      const staged = run(dataDir, 'oidc:keys', '--step', 'stage');
      expect(staged.status).toBe(0);
      expect(staged.stdout).toMatch(
        /^\S+ RS256 signs\n\S+ RS256 published\npublished, not signing/,
      );
      const early = run(dataDir, 'oidc:keys', '--step', 'promote');
      expect(early.status).toBe(1);
      expect(early.stderr).toMatch(/^refused: wait_before_retry \(try again in 1[12]\d\d s\)/);
      expect(run(dataDir, 'oidc:keys', '--step', 'now').status).toBe(2);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 240_000);
});
