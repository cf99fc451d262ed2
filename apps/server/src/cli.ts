// Operator commands: `npm run cli -w @hygie/server -- <command> [options]` (root shortcuts in README).
import { parseArgs } from 'node:util';
import { asLanguage } from '@hygie/domain';
import { createContext } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { openDatabase } from './db/connection.js';
import { migrateToLatest } from './db/migrate.js';
import { AppError } from './lib/app-error.js';
import { inviteUser } from './modules/first-login/invite.js';
import type { AppContext } from './context.js';
import { rotateKeys, signingKeyList } from './modules/oidc/service.js';
import { addPlatformCommand } from './modules/platforms/command.js';
import { publishTerms } from './modules/settings/service.js';

const USAGE = `usage:
  cli migrate
  cli invite --email ADDRESS [--admin] [--first-name NAME] [--last-name NAME] [--profile patient|professional] [--language fr|en|ar]
  cli cgu:publish --version VERSION [--date YYYY-MM-DD]
  cli oidc:keys [--step stage|promote|retire]
  cli platform:add --name NAME --url URL --redirect-uri URI [--redirect-uri URI …] [--post-logout-uri URI …] [--backchannel-logout-uri URI] [--policy open|on_request|admin] [--public] [--third-party] [--description TEXT] [--logo-url URL]`;

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: {
      email: { type: 'string' },
      admin: { type: 'boolean', default: false },
      'first-name': { type: 'string' },
      'last-name': { type: 'string' },
      profile: { type: 'string' },
      language: { type: 'string' },
      version: { type: 'string' },
      date: { type: 'string' },
      name: { type: 'string' },
      url: { type: 'string' },
      description: { type: 'string' },
      'logo-url': { type: 'string' },
      'redirect-uri': { type: 'string', multiple: true },
      'post-logout-uri': { type: 'string', multiple: true },
      'backchannel-logout-uri': { type: 'string' },
      policy: { type: 'string' },
      public: { type: 'boolean', default: false },
      'third-party': { type: 'boolean', default: false },
      step: { type: 'string' },
    },
    strict: true,
  });
  const config = loadConfig();
  const database = openDatabase(config.database);
  try {
    if (command === 'migrate') {
      const applied = await migrateToLatest(database);
      process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'up to date\n');
      return;
    }
    const ctx = await createContext(config, database);
    if (command === 'invite') {
      if (!values.email) throw new UsageError('--email is required');
      const profile = values.profile;
      if (profile !== undefined && profile !== 'patient' && profile !== 'professional') {
        throw new UsageError('--profile is patient or professional');
      }
      const { link } = await inviteUser(ctx, {
        email: values.email,
        admin: values.admin,
        profile: profile ?? null,
        firstName: values['first-name'] ?? null,
        lastName: values['last-name'] ?? null,
        language: asLanguage(values.language) ?? 'fr',
      });
      process.stdout.write(`${link}\n`);
      return;
    }
    if (command === 'cgu:publish') {
      if (!values.version) throw new UsageError('--version is required');
      await publishTerms(ctx, { version: values.version, publishedAt: values.date }, null);
      process.stdout.write(
        `terms version ${values.version} in force: every user accepts it at the next sign-in\n`,
      );
      return;
    }
    if (command === 'platform:add') {
      if (!values.name || !values.url || !values['redirect-uri']) {
        throw new UsageError('--name, --url and --redirect-uri are required');
      }
      process.stdout.write(`${await addPlatformCommand(ctx, values)}\n`);
      return;
    }
    if (command === 'oidc:keys') {
      process.stdout.write(`${await signingKeysCommand(ctx, values.step)}\n`);
      return;
    }
    throw new UsageError(`unknown command: ${command ?? '(none)'}`);
  } finally {
    await database.close();
  }
}

class UsageError extends Error {}

const NEXT_STEP = {
  stage: 'published, not signing: restart the nodes (rolling), then promote in 20 minutes or more',
  promote: 'the new key signs: restart the nodes (rolling), then retire in 1 h 20 min or more',
  retire: 'the old key is no longer published: restart the nodes (rolling)',
} as const;

/** Lists the provider's signing keys, or applies one step of their rotation (audited). */
async function signingKeysCommand(ctx: AppContext, step: string | undefined): Promise<string> {
  if (step !== undefined && step !== 'stage' && step !== 'promote' && step !== 'retire') {
    throw new UsageError('--step is stage, promote or retire');
  }
  const { keys } = step
    ? await rotateKeys(ctx, step, { userId: null, ip: null })
    : await signingKeyList(ctx);
  const lines = keys.map((k) => `${k.kid} ${k.alg} ${k.signing ? 'signs' : 'published'}`);
  return [...lines, ...(step ? [NEXT_STEP[step]] : [])].join('\n');
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof UsageError || (err instanceof TypeError && 'code' in err)) {
    process.stderr.write(`${err.message}\n${USAGE}\n`);
    process.exitCode = 2;
  } else if (err instanceof ConfigError) {
    process.stderr.write(`${err.message}\n`);
    process.exitCode = 2;
  } else if (err instanceof AppError) {
    const wait = err.headers?.['retry-after'];
    process.stderr.write(`refused: ${err.code}${wait ? ` (try again in ${wait} s)` : ''}\n`);
    process.exitCode = 1;
  } else {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  }
});
