import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../../config.js';
import { MIGRATION_NAMES, pendingMigrations } from '../../db/migrate.js';
import type { CommandEnv } from '../command.js';
import { defineCommand, describeError } from '../command.js';

interface DatabaseReport {
  dialect: 'sqlite' | 'postgres';
  /** The SQLite file, or the PostgreSQL server and database (never its credentials). */
  location: string;
  reachable: boolean;
  /** Why it could not be reached or read. */
  error: string | null;
  /** Migrations not yet applied (null when the database could not be read). */
  pendingMigrations: string[] | null;
}

export interface ConfigReport {
  /** The server can start on this configuration and reach its database. */
  usable: boolean;
  /** Why it cannot (empty when usable). */
  problems: string[];
  environment: Config['env'];
  publicUrl: string;
  database: DatabaseReport;
  messaging: {
    /** The SMTP relay (no credentials), or null: e-mails are printed on the console. */
    smtp: string | null;
    /** The SMS gateway (no query), or null: SMS are printed on the console. */
    smsGateway: string | null;
    /** /api/dev/outbox is served (every code and link in clear): neither transport is set. */
    devOutbox: boolean;
  };
  production: {
    /** NODE_ENV=production: the requirements below must hold. */
    required: boolean;
    /** The production requirements that do not hold (empty: they all do). */
    unmet: string[];
  };
}

/** Where a URL points, without credentials, query or fragment. */
function address(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`;
  } catch {
    return '(unreadable URL)';
  }
}

/** The nearest existing path on the way to `file`'s folder, or null when there is none. */
function nearestExisting(file: string): string | null {
  let folder = path.dirname(file);
  while (!fs.existsSync(folder)) {
    const parent = path.dirname(folder);
    if (parent === folder) return null;
    folder = parent;
  }
  return folder;
}

async function checkDatabase(config: Config, env: CommandEnv): Promise<DatabaseReport> {
  const target = config.database;
  const report: DatabaseReport = {
    dialect: target.kind,
    location: target.kind === 'sqlite' ? target.file : address(target.url),
    reachable: false,
    error: null,
    pendingMigrations: null,
  };
  // A SQLite file not created yet is not created by a check: the server creates it at first
  // start, if it may write in the folder.
  if (target.kind === 'sqlite' && !fs.existsSync(target.file)) {
    const folder = nearestExisting(target.file);
    try {
      if (folder === null || !fs.statSync(folder).isDirectory()) {
        throw new Error(`${folder ?? target.file} is not a folder`);
      }
      fs.accessSync(folder, fs.constants.W_OK);
      return { ...report, reachable: true, pendingMigrations: [...MIGRATION_NAMES] };
    } catch (err) {
      return { ...report, error: `cannot create the file: ${describeError(err)}` };
    }
  }
  try {
    const database = env.database();
    await database.ping();
    return { ...report, reachable: true, pendingMigrations: await pendingMigrations(database) };
  } catch (err) {
    return { ...report, error: describeError(err) };
  }
}

/** What NODE_ENV=production needs (docs/operations.md), whatever the environment is. */
function unmetProductionRequirements(config: Config): string[] {
  return [
    ...(config.publicUrl.protocol === 'https:'
      ? []
      : ['PUBLIC_URL is not https:// (cookies are not Secure, no HSTS)']),
    ...(config.smtp ? [] : ['SMTP_URL is not set (e-mails go to the console)']),
    ...(config.sms ? [] : ['SMS_GATEWAY_URL is not set (SMS go to the console)']),
    ...(config.dataKeys.encryption
      ? []
      : [
          'DATA_ENCRYPTION_KEY is not set (health identifiers sealed with a key generated into DATA_DIR)',
        ]),
    ...(config.dataKeys.index
      ? []
      : ['DATA_INDEX_KEY is not set (the INS index keyed with a key generated into DATA_DIR)']),
  ];
}

function describeDatabase(database: DatabaseReport): string {
  const where = `${database.dialect} ${database.location}`;
  if (!database.reachable) return `${where}: unreachable: ${database.error ?? 'unknown error'}`;
  const pending = database.pendingMigrations ?? [];
  if (pending.length === 0) return `${where}: reachable, migrations up to date`;
  const names = pending.length > 3 ? [pending[0], '…', pending.at(-1)] : pending;
  return `${where}: reachable, ${pending.length} migration(s) pending (${names.join(', ')}): the server applies them at start, or npm run migrate`;
}

function describeProduction(production: ConfigReport['production'], env: string): string {
  const state = production.unmet.length ? `not met: ${production.unmet.join('; ')}` : 'met';
  return production.required ? state : `not required (NODE_ENV=${env}), ${state}`;
}

function text(report: ConfigReport): string {
  const rows: [string, string][] = [
    ['environment', report.environment],
    ['public URL', report.publicUrl],
    ['database', describeDatabase(report.database)],
    ['e-mail', report.messaging.smtp ? `SMTP ${report.messaging.smtp}` : 'printed on the console'],
    [
      'SMS',
      report.messaging.smsGateway
        ? `gateway ${report.messaging.smsGateway}`
        : 'printed on the console',
    ],
    [
      'dev outbox',
      report.messaging.devOutbox ? 'served at /api/dev/outbox (codes and links in clear)' : 'off',
    ],
    ['production', describeProduction(report.production, report.environment)],
  ];
  const width = Math.max(...rows.map(([label]) => label.length)) + 2;
  const lines = rows.map(([label, value]) => `${label.padEnd(width)}${value}`);
  const verdict = report.usable ? 'usable' : `not usable: ${report.problems.join('; ')}`;
  return [...lines, verdict].join('\n');
}

export const configCheck = defineCommand({
  name: 'config:check',
  summary: 'checks the configuration and the database without changing anything',
  usage: '',
  description:
    'Loads the configuration (a bad variable: one line each, exit 2), reaches the database and\nreports its dialect and pending migrations, how e-mails and SMS are delivered (or whether the\ndev outbox is used), PUBLIC_URL, and whether the production requirements hold. Changes nothing\n(a SQLite file not created yet stays so). Exit 0 when the server can run on it, 1 when not.',
  options: {},
  help: {},
  run: async (_values, env) => {
    const config = env.config();
    const database = await checkDatabase(config, env);
    const unmet = unmetProductionRequirements(config);
    const problems = [
      ...(database.reachable ? [] : [`database unreachable (${database.error ?? 'unknown'})`]),
      ...(config.production ? unmet.map((requirement) => `production: ${requirement}`) : []),
    ];
    const report: ConfigReport = {
      usable: problems.length === 0,
      problems,
      environment: config.env,
      publicUrl: config.publicUrl.href,
      database,
      messaging: {
        smtp: config.smtp ? address(config.smtp.url) : null,
        smsGateway: config.sms ? address(config.sms.url) : null,
        devOutbox: config.devOutbox,
      },
      production: { required: config.production, unmet },
    };
    return { data: report, text: text(report), exitCode: report.usable ? 0 : 1 };
  },
});
