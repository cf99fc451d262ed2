import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { COMMANDS } from './cli/registry.js';
import { runCli } from './cli/runner.js';
import { openDatabase } from './db/connection.js';
import { MIGRATION_NAMES } from './db/migrate.js';
import { randomToken } from './lib/tokens.js';
import { TEST_DATABASE_URL } from './test/helpers.js';

const cli = path.join(import.meta.dirname, 'cli.ts');

/** A terms text in every language, as `cgu:publish --file` reads it. */
const TERMS_FILE = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'hygie-terms-')), 'terms.json');
const SECTION = (text: string) => [{ title: text, body: `${text}…` }];
fs.writeFileSync(
  TERMS_FILE,
  JSON.stringify({ fr: SECTION('Objet'), en: SECTION('Purpose'), ar: SECTION('الغرض') }),
);
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
      expect(usage.stderr).toBe('--email is required; run cli invite --help\n');
      // A date to come schedules the version: the one in force stays until that day.
      const scheduled = run(
        dataDir,
        'cgu:publish',
        '--version',
        '2099-01',
        '--date',
        '2099-01-01',
        '--file',
        TERMS_FILE,
      );
      expect(scheduled.status).toBe(0);
      expect(scheduled.stdout).toContain(
        'terms version 2099-01 scheduled: in force from 2099-01-01',
      );

      const db = openDatabase({ kind: 'sqlite', file: path.join(dataDir, 'hygie.sqlite') });
      const user = await db.db
        .selectFrom('users')
        .select(['roles', 'must_create_password', 'password_hash'])
        .executeTakeFirstOrThrow();
      expect(user).toEqual({ roles: '["admin"]', must_create_password: 1, password_hash: null });
      const settings = await db.db
        .selectFrom('settings')
        .select(['key', 'value'])
        .where('key', 'like', 'CGU_%')
        .orderBy('key')
        .execute();
      expect(settings.map((row): [string, unknown] => [row.key, JSON.parse(row.value)])).toEqual([
        ['CGU_NEXT_AT', '2099-01-01'],
        ['CGU_NEXT_VERSION', '2099-01'],
        ['CGU_PUBLISHED_AT', '2026-01-01'],
        ['CGU_VERSION', '2026-01'],
      ]);
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
        '--assurance',
        'substantial',
      );
      expect(added.status).toBe(0);
      expect(added.stdout).toContain('minimum level: substantial');
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

/** Runs the CLI in this process (no tsx start-up): its exit code and what it wrote. */
async function runHere(env: NodeJS.ProcessEnv, ...args: string[]) {
  let stdout = '';
  let stderr = '';
  const status = await runCli(args, {
    env: { LOG_LEVEL: 'silent', ...env },
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
  });
  return { status, stdout, stderr };
}

/** A data folder that does not exist: any command that opened the database would create it. */
function untouchedDataDir(): string {
  return path.join(os.tmpdir(), `hygie-cli-untouched-${randomToken(9).replace(/\W/g, '')}`);
}

const configReport = z.object({
  usable: z.boolean(),
  problems: z.array(z.string()),
  environment: z.string(),
  publicUrl: z.string(),
  database: z.object({
    dialect: z.enum(['sqlite', 'postgres']),
    location: z.string(),
    reachable: z.boolean(),
    error: z.string().nullable(),
    pendingMigrations: z.array(z.string()).nullable(),
  }),
  messaging: z.object({
    smtp: z.string().nullable(),
    smsGateway: z.string().nullable(),
    devOutbox: z.boolean(),
  }),
  production: z.object({ required: z.boolean(), unmet: z.array(z.string()) }),
});

describe('the command registry', () => {
  it('lists every command in `cli --help` and `cli help`, without configuration or database', async () => {
    const dataDir = untouchedDataDir();
    // A configuration the CLI refuses: help must not read it.
    const env = { DATA_DIR: dataDir, PORT: 'not-a-port' };
    for (const args of [['--help'], ['-h'], ['help']]) {
      const { status, stdout, stderr } = await runHere(env, ...args);
      expect(status).toBe(0);
      expect(stderr).toBe('');
      expect(stdout).toMatch(/^usage: cli <command> \[options\]\n/);
      for (const command of COMMANDS) {
        expect(stdout).toContain(`  ${command.name}`);
        expect(stdout).toContain(command.summary);
      }
    }
    const listed = await runHere(env, '--help', '--json');
    expect(
      z
        .object({ commands: z.array(z.object({ name: z.string() })) })
        .parse(JSON.parse(listed.stdout))
        .commands.map((c) => c.name),
    ).toEqual(COMMANDS.map((c) => c.name));
    expect(fs.existsSync(dataDir)).toBe(false);
  });

  it.each(COMMANDS.map((c) => [c.name, c] as const))(
    'prints the usage of %s with --help, -h and `help <command>` (exit 0, no database)',
    async (name, command) => {
      const dataDir = untouchedDataDir();
      const env = { DATA_DIR: dataDir, PORT: 'not-a-port' };
      for (const args of [
        [name, '--help'],
        [name, '-h'],
        ['help', name],
        [name, '--email', 'x', '--help'],
      ]) {
        const { status, stdout, stderr } = await runHere(env, ...args);
        expect(status).toBe(0);
        expect(stderr).toBe('');
        expect(stdout.startsWith(`usage: cli ${name}`)).toBe(true);
        for (const option of Object.keys(command.options)) expect(stdout).toContain(`--${option}`);
        expect(stdout).toContain('--json');
      }
      expect(fs.existsSync(dataDir)).toBe(false);
    },
  );

  it('names each command once; every root npm script of the CLI runs a registered command', () => {
    const names = COMMANDS.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
    const manifest = z
      .object({ scripts: z.record(z.string(), z.string()) })
      .parse(
        JSON.parse(
          fs.readFileSync(path.join(import.meta.dirname, '../../../package.json'), 'utf8'),
        ),
      );
    const scripted = Object.values(manifest.scripts).flatMap(
      (script) => /^npm run cli --silent -w @hygie\/server -- (\S+)$/.exec(script)?.[1] ?? [],
    );
    expect(scripted.filter((name) => !names.includes(name))).toEqual([]);
    expect(scripted).toContain('config:check');
  });

  it('refuses bad usage and bad input with one line and exit 2, before reading the configuration', async () => {
    const dataDir = untouchedDataDir();
    const env = { DATA_DIR: dataDir, PORT: 'not-a-port' };
    const cases: [string[], string][] = [
      [
        ['invite', '--email', 'not-an-email'],
        '--email "not-an-email": email_invalid; run cli invite --help',
      ],
      [['invite'], '--email is required; run cli invite --help'],
      [
        ['invite', '--email', 'a@example.fr', '--first-name', 'R2D2', '--profile', 'doctor'],
        '--first-name "R2D2": name_invalid; --profile "doctor": ',
      ],
      [['invite', '--email', 'a@example.fr', '--language', 'de'], '--language "de": '],
      [
        ['cgu:publish', '--version', '2026-03', '--date', '2026-02-30', '--file', TERMS_FILE],
        '--date "2026-02-30": expected a real calendar date, YYYY-MM-DD; run cli cgu:publish --help',
      ],
      [['cgu:publish', '--date', '2026-03-01', '--file', TERMS_FILE], '--version is required'],
      [['cgu:publish', '--version', '2026-03'], '--file is required'],
      [
        ['cgu:publish', '--version', '2026-03', '--file', cli],
        `--file ${JSON.stringify(cli)}: not JSON`,
      ],
      [
        ['cgu:publish', '--version', '2026-03', '--file', `${TERMS_FILE}.missing`],
        'cannot be read',
      ],
      [
        ['platform:add', '--name', 'Agenda', '--url', 'https://agenda.example.fr'],
        '--redirect-uri is required',
      ],
      [
        [
          'platform:add',
          '--name',
          'Agenda',
          '--url',
          'https://agenda.example.fr',
          '--redirect-uri',
          'https://agenda.example.fr/cb',
          '--redirect-uri',
          'javascript:alert(1)',
        ],
        '--redirect-uri "javascript:alert(1)": ',
      ],
      [
        [
          'platform:add',
          '--name',
          'Agenda',
          '--url',
          'https://agenda.example.fr',
          '--redirect-uri',
          'https://agenda.example.fr/cb',
          '--assurance',
          'medium',
        ],
        '--assurance "medium": ',
      ],
      [['oidc:keys', '--step', 'now'], '--step "now": '],
      [['invite', '--mail', 'a@example.fr'], "Unknown option '--mail'; run cli invite --help"],
      [['invite', '--email'], "Option '--email <value>' argument missing; run cli invite --help"],
      [['migrate', 'now'], "Unexpected argument 'now'; run cli migrate --help"],
      [['frobnicate'], 'unknown command: frobnicate; run cli --help'],
    ];
    for (const [args, line] of cases) {
      const { status, stdout, stderr } = await runHere(env, ...args);
      expect({ args, status, stdout }).toEqual({ args, status: 2, stdout: '' });
      expect(stderr.split('\n')).toEqual([expect.stringContaining(line), '']);
    }
    const json = await runHere(
      env,
      'cgu:publish',
      '--version',
      '1',
      '--date',
      '2026-02-30',
      '--file',
      TERMS_FILE,
      '--json',
    );
    expect(json.status).toBe(2);
    expect(JSON.parse(json.stderr)).toEqual({
      error:
        '--date "2026-02-30": expected a real calendar date, YYYY-MM-DD; run cli cgu:publish --help',
      code: 'validation_error',
    });
    expect(fs.existsSync(dataDir)).toBe(false);
  });

  it('refuses a bad configuration with its lines and exit 2, as JSON with --json', async () => {
    const { status, stderr } = await runHere({ PORT: 'not-a-port' }, 'config:check', '--json');
    expect(status).toBe(2);
    expect(JSON.parse(stderr)).toEqual({
      error: 'Invalid configuration: PORT="not-a-port": expected a port number, 0 to 65535',
      code: 'invalid_configuration',
    });
  });

  it('locks, unlocks and sends a password link from the command line, audited as the CLI', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hygie-cli-'));
    const env = { DATA_DIR: dataDir, PUBLIC_URL: 'https://portal.example.fr' };
    try {
      expect((await runHere(env, 'invite', '--email', 'lou@example.fr')).status).toBe(0);
      const locked = await runHere(env, 'user:lock', '--email', ' Lou@Example.fr ', '--json');
      expect(locked.status).toBe(0);
      expect(JSON.parse(locked.stdout)).toMatchObject({ email: 'lou@example.fr', action: 'lock' });
      const twice = await runHere(env, 'user:lock', '--email', 'lou@example.fr');
      expect({ status: twice.status, stderr: twice.stderr }).toEqual({
        status: 1,
        stderr: 'refused: account_state_conflict\n',
      });
      expect((await runHere(env, 'user:unlock', '--email', 'lou@example.fr')).stdout).toBe(
        'lou@example.fr: unlock done\n',
      );
      // Invited, no password yet: nothing to reset (the invitation is the way in).
      expect((await runHere(env, 'user:reset', '--email', 'lou@example.fr')).stderr).toBe(
        'refused: account_state_conflict\n',
      );
      expect((await runHere(env, 'user:lock', '--email', 'nobody@example.fr')).stderr).toBe(
        'refused: not_found\n',
      );
      expect((await runHere(env, 'user:lock', '--email', 'not-an-address')).status).toBe(2);

      const db = openDatabase({ kind: 'sqlite', file: path.join(dataDir, 'hygie.sqlite') });
      const events = await db.db
        .selectFrom('audit_events')
        .select(['action', 'actor_id', 'details'])
        .where('action', 'in', ['account_locked', 'account_unlocked'])
        .orderBy('at')
        .execute();
      expect(events).toEqual([
        { action: 'account_locked', actor_id: null, details: '{"via":"cli"}' },
        { action: 'account_unlocked', actor_id: null, details: '{"via":"cli"}' },
      ]);
      const mails = await db.db
        .selectFrom('outbox')
        .select('template')
        .where('recipient', '=', 'lou@example.fr')
        .orderBy('created_at')
        .execute();
      expect(mails.map((m) => m.template)).toEqual([
        'first_login_invitation',
        'account_locked',
        'account_changed',
      ]);
      await db.close();

      // The trail, exported to a file only its owner reads; an existing file is never overwritten.
      const file = path.join(dataDir, 'locks.csv');
      const exported = await runHere(
        env,
        'audit:export',
        '--output',
        file,
        '--type',
        'account_locked',
        '--json',
      );
      expect(JSON.parse(exported.stdout)).toEqual({ file, events: 1 });
      const lines = fs.readFileSync(file, 'utf8').trimEnd().split('\r\n');
      expect(lines[0]).toBe('at,action,actor_id,target_id,ip,user_agent,request_id,details');
      expect(lines[1]).toContain(',account_locked,,');
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      const again = await runHere(env, 'audit:export', '--output', file);
      expect(again.status).toBe(1);
      expect(again.stderr.split('\n')).toEqual([expect.stringContaining('EEXIST'), '']);
      expect(
        (await runHere(env, 'audit:export', '--output', file, '--from', '2026-02-30')).status,
      ).toBe(2);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('invites with --json, then refuses the same address (exit 1, JSON on stderr)', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hygie-cli-'));
    const env = { DATA_DIR: dataDir, PUBLIC_URL: 'https://portal.example.fr' };
    try {
      const args = [
        'invite',
        '--email',
        ' Camille@Example.fr ',
        '--first-name',
        'Camille',
        '--language',
        'en',
        '--json',
      ];
      const invited = await runHere(env, ...args);
      expect(invited.status).toBe(0);
      const result = z
        .object({ userId: z.string(), email: z.string(), link: z.string() })
        .strict()
        .parse(JSON.parse(invited.stdout));
      expect(result.email).toBe('camille@example.fr');
      expect(result.link).toContain(`personIdentifier=${result.userId}&email=camille%40example.fr`);
      const again = await runHere(env, ...args);
      expect(again.status).toBe(1);
      expect(again.stdout).toBe('');
      expect(JSON.parse(again.stderr)).toEqual({
        error: 'refused: email_already_used',
        code: 'email_already_used',
      });
      const published = await runHere(
        env,
        'cgu:publish',
        '--version',
        '2027-01',
        '--file',
        TERMS_FILE,
        '--json',
      );
      expect(JSON.parse(published.stdout)).toEqual({
        version: '2027-01',
        publishedAt: expect.stringMatching(/^\d{4}-\d\d-\d\d$/),
        scheduled: false,
        hashes: {
          fr: expect.stringMatching(/^[0-9a-f]{64}$/),
          en: expect.stringMatching(/^[0-9a-f]{64}$/),
          ar: expect.stringMatching(/^[0-9a-f]{64}$/),
        },
      });
      // Published once: the same version again is refused (exit 1), in words and as a code.
      const republished = await runHere(
        env,
        'cgu:publish',
        '--version',
        '2027-01',
        '--file',
        TERMS_FILE,
        '--json',
      );
      expect(republished.status).toBe(1);
      expect(JSON.parse(republished.stderr)).toMatchObject({ code: 'terms_version_exists' });
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  it('config:check on SQLite: reports without creating the file, then the migrations applied', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hygie-cli-'));
    const env = { DATA_DIR: path.join(dataDir, 'data'), PUBLIC_URL: 'https://portal.example.fr' };
    try {
      const fresh = await runHere(env, 'config:check', '--json');
      expect(fresh.status).toBe(0);
      const report = configReport.parse(JSON.parse(fresh.stdout));
      expect(report).toMatchObject({
        usable: true,
        environment: 'development',
        publicUrl: 'https://portal.example.fr/',
        database: { dialect: 'sqlite', reachable: true, pendingMigrations: [...MIGRATION_NAMES] },
        messaging: { smtp: null, smsGateway: null, devOutbox: true },
        production: {
          required: false,
          unmet: [
            expect.stringContaining('SMTP_URL'),
            expect.stringContaining('SMS_GATEWAY_URL'),
            expect.stringContaining('DATA_ENCRYPTION_KEY'),
            expect.stringContaining('DATA_INDEX_KEY'),
          ],
        },
      });
      expect(fs.existsSync(path.join(dataDir, 'data'))).toBe(false);

      expect((await runHere(env, 'migrate', '--json')).stdout).toBe(
        `${JSON.stringify({ applied: MIGRATION_NAMES })}\n`,
      );
      const text = await runHere(env, 'config:check');
      expect(text.status).toBe(0);
      expect(text.stdout).toMatch(
        /^database +sqlite .*hygie\.sqlite: reachable, migrations up to date$/m,
      );
      expect(text.stdout).toMatch(/^dev outbox +served at \/api\/dev\/outbox/m);
      expect(text.stdout.trimEnd().split('\n').at(-1)).toBe('usable');
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  it('config:check: an unreachable database or an unmet production requirement is not usable (exit 1)', async () => {
    const unreachable = await runHere(
      { DATABASE_URL: 'postgres://hygie:secret@127.0.0.1:1/hygie' },
      'config:check',
    );
    expect(unreachable.status).toBe(1);
    expect(unreachable.stdout).toMatch(
      /^database +postgres postgres:\/\/127\.0\.0\.1:1\/hygie: unreachable: \S.*$/m,
    );
    expect(unreachable.stdout).not.toContain('secret');
    expect(unreachable.stdout.trimEnd().split('\n').at(-1)).toMatch(
      /^not usable: database unreachable \(.+\)$/,
    );

    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hygie-cli-'));
    try {
      const production = await runHere(
        {
          NODE_ENV: 'production',
          DATA_DIR: dataDir,
          PUBLIC_URL: 'http://portal.example.fr',
          SMTP_URL: 'smtp://user:password@mail.example.fr:587',
          SMS_GATEWAY_URL: 'https://sms.example.fr/send?token=abc',
          DATA_ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'),
          DATA_INDEX_KEY: Buffer.alloc(32, 2).toString('base64'),
        },
        'config:check',
        '--json',
      );
      expect(production.status).toBe(1);
      expect(production.stdout).not.toMatch(/password|abc/);
      expect(configReport.parse(JSON.parse(production.stdout))).toMatchObject({
        usable: false,
        problems: [expect.stringMatching(/^production: PUBLIC_URL is not https/)],
        messaging: {
          smtp: 'smtp://mail.example.fr:587',
          smsGateway: 'https://sms.example.fr/send',
          devOutbox: false,
        },
        production: { required: true, unmet: [expect.stringMatching(/^PUBLIC_URL/)] },
      });
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 30_000);

  // PostgreSQL only, like the suite's other PostgreSQL tests: CI (.ci/run) sets REQUIRE_POSTGRES=1,
  // which refuses to run without TEST_DATABASE_URL, so CI never skips it.
  it.skipIf(!TEST_DATABASE_URL)(
    'config:check on PostgreSQL: pending migrations, then none',
    async () => {
      const schema = `t_cli_${randomToken(6)
        .replace(/[^a-zA-Z0-9]/g, '')
        .toLowerCase()}`;
      const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await admin.connect();
      await admin.query(`create schema ${schema}`);
      try {
        const url = new URL(TEST_DATABASE_URL ?? '');
        url.searchParams.set('options', `-c search_path=${schema}`);
        const env = { DATABASE_URL: url.href };
        const before = configReport.parse(
          JSON.parse((await runHere(env, 'config:check', '--json')).stdout),
        );
        expect(before.database).toMatchObject({
          dialect: 'postgres',
          reachable: true,
          pendingMigrations: [...MIGRATION_NAMES],
        });
        expect(before.database.location).not.toContain('search_path');
        expect((await runHere(env, 'migrate')).status).toBe(0);
        const after = await runHere(env, 'config:check', '--json');
        expect(after.status).toBe(0);
        expect(configReport.parse(JSON.parse(after.stdout)).database.pendingMigrations).toEqual([]);
      } finally {
        await admin.query(`drop schema if exists ${schema} cascade`);
        await admin.end();
      }
    },
    60_000,
  );
});

describe('the cli entry point', () => {
  it('exits 0 on --help, 2 on bad input and 1 on an unreachable database, one line and no stack', () => {
    const dataDir = untouchedDataDir();
    const help = run(dataDir, 'invite', '--help');
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^usage: cli invite --email ADDRESS/);
    const bad = run(dataDir, 'invite', '--email', 'not-an-email');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toBe('--email "not-an-email": email_invalid; run cli invite --help\n');
    const unreachable = spawnSync(
      process.execPath,
      ['--import', 'tsx', cli, 'invite', '--email', 'a@example.fr'],
      {
        env: {
          ...process.env,
          LOG_LEVEL: 'silent',
          DATABASE_URL: 'postgres://postgres@127.0.0.1:1/hygie',
        },
        encoding: 'utf8',
      },
    );
    expect(unreachable.status).toBe(1);
    expect(unreachable.stderr).toMatch(/^connect ECONNREFUSED 127\.0\.0\.1:1\n$/);
    expect(fs.existsSync(dataDir)).toBe(false);
  }, 120_000);

  it('reads a relative DATA_DIR from where npm was started, as `npm start` does', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hygie-cli-'));
    try {
      const { DATA_DIR: _unset, ...env } = process.env;
      const checked = spawnSync(
        process.execPath,
        ['--import', 'tsx', cli, 'config:check', '--json'],
        {
          env: { ...env, LOG_LEVEL: 'silent', INIT_CWD: root },
          encoding: 'utf8',
        },
      );
      expect(checked.status).toBe(0);
      expect(configReport.parse(JSON.parse(checked.stdout)).database.location).toBe(
        path.join(root, 'data', 'hygie.sqlite'),
      );
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  }, 60_000);
});
