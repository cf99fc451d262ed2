import path from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { beforeAll, describe, expect, it } from 'vitest';

// The layer rules of eslint.layers.js, fed deliberate violations: each must fail `npm run lint`.
const root = path.resolve(import.meta.dirname, '../../..');
let eslint: ESLint;

// Loading the configuration and its plugins is the slow part: done once, before the checks.
beforeAll(async () => {
  // The checked files exist only in memory, so the type-aware rules (which need each file in a
  // tsconfig program) cannot type them; the layer rules under test are syntactic, so the repo's
  // configuration runs here with type-aware parsing and rules switched off.
  eslint = new ESLint({ cwd: root, overrideConfig: tseslint.configs.disableTypeChecked });
  await eslint.lintText('export {};\n', {
    filePath: path.join(root, 'apps/server/src/warm-up.ts'),
  });
}, 120_000);

async function ruleIds(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? []).map((m) => m.ruleId ?? m.message);
}

const module = 'apps/server/src/modules/example';

describe('the server layers, enforced by lint', () => {
  it.each([
    [
      'a route importing another module’s routes',
      `${module}/routes.ts`,
      "import { x } from '../password/routes.js';\nexport const y = x;\n",
    ],
    [
      'a service importing another module’s routes',
      `${module}/service.ts`,
      "import { x } from '../password/routes.js';\nexport const y = x;\n",
    ],
    [
      'a service importing its own routes (upward)',
      `${module}/service.ts`,
      "import { x } from './routes.js';\nexport const y = x;\n",
    ],
    [
      'a service reaching into another module’s repository',
      `${module}/service.ts`,
      "import { x } from '../users/repository.js';\nexport const y = x;\n",
    ],
    [
      'a route reaching into another module’s repository',
      `${module}/routes.ts`,
      "import { x } from '../users/repository.js';\nexport const y = x;\n",
    ],
    [
      'a repository calling a service (upward)',
      `${module}/repository.ts`,
      "import { x } from './service.js';\nexport const y = x;\n",
    ],
    [
      'a service using an HTTP plugin',
      `${module}/service.ts`,
      "import { x } from '../../plugins/csrf.js';\nexport const y = x;\n",
    ],
    [
      'lib importing a module',
      'apps/server/src/lib/example.ts',
      "import { x } from '../modules/users/service.js';\nexport const y = x;\n",
    ],
    [
      'a plugin importing a module’s routes',
      'apps/server/src/plugins/example.ts',
      "import { x } from '../modules/auth/routes.js';\nexport const y = x;\n",
    ],
    [
      'an operator command reaching into a repository',
      'apps/server/src/cli/commands/example.ts',
      "import { x } from '../../modules/users/repository.js';\nexport const y = x;\n",
    ],
    [
      'an operator command using an HTTP plugin',
      'apps/server/src/cli/example.ts',
      "import { x } from '../plugins/csrf.js';\nexport const y = x;\n",
    ],
    [
      'the server importing the web client',
      `${module}/service.ts`,
      "import { x } from '@hygie/web';\nexport const y = x;\n",
    ],
  ])('fails on %s', async (_name, file, code) => {
    expect(await ruleIds(file, code)).toContain('no-restricted-imports');
  });

  it.each([
    ['a query in a route', `${module}/routes.ts`],
    ['a query in a service', `${module}/service.ts`],
    ['a query in a plugin', 'apps/server/src/plugins/example.ts'],
  ])('fails on SQL outside a repository: %s', async (_name, file) => {
    const code =
      "import type { Db } from '../../db/connection.js';\n" +
      "export const q = (db: Db) => db.selectFrom('users').selectAll().execute();\n";
    expect(await ruleIds(file, code)).toContain('no-restricted-syntax');
  });

  it.each([
    [
      'users',
      'apps/server/src/modules/sessions/repository.ts',
      "db.updateTable('users').set({ status: 'locked' })",
    ],
    ['throttles', 'apps/server/src/modules/settings/repository.ts', "db.deleteFrom('throttles')"],
    ['sessions', `${module}/repository.ts`, "db.insertInto('sessions').values([])"],
  ])('fails on a write to %s outside the repository that owns it', async (_table, file, write) => {
    const code =
      "import type { Db } from '../../db/connection.js';\n" +
      `export const w = (db: Db) => ${write}.execute();\n`;
    expect(await ruleIds(file, code)).toContain('no-restricted-syntax');
  });

  it('accepts a write by the owner and a join read by another repository', async () => {
    const write =
      "import type { Db } from '../../db/connection.js';\n" +
      "export const w = (db: Db) => db.updateTable('sessions').set({ last_seen_at: 1 }).execute();\n";
    const join =
      "import type { Db } from '../../db/connection.js';\n" +
      "export const r = (db: Db) => db.selectFrom('settings').leftJoin('users', 'users.id', 'settings.updated_by').selectAll().execute();\n";
    expect(await ruleIds('apps/server/src/modules/sessions/repository.ts', write)).toEqual([]);
    expect(await ruleIds('apps/server/src/modules/settings/repository.ts', join)).toEqual([]);
  });

  it('fails on a transaction opened by a route', async () => {
    const code =
      "import type { Db } from '../../db/connection.js';\n" +
      "import { transaction } from '../../db/transaction.js';\n" +
      'export const t = (db: Db) => transaction(db, async () => 1);\n';
    expect(await ruleIds(`${module}/routes.ts`, code)).toContain('no-restricted-syntax');
    expect(await ruleIds(`${module}/service.ts`, code)).toEqual([]);
  });

  it('fails on a transaction begun with Kysely’s own, outside db/transaction.ts', async () => {
    const code =
      "import type { Db } from '../../db/connection.js';\n" +
      'export const t = (db: Db) => db.transaction().execute(async () => 1);\n';
    for (const file of [
      `${module}/service.ts`,
      `${module}/repository.ts`,
      'apps/server/src/modules/users/repository.ts',
      'apps/server/src/bootstrap.ts',
    ]) {
      expect(await ruleIds(file, code)).toContain('no-restricted-syntax');
    }
  });

  it('fails on an import cycle, even between two services', async () => {
    // mfa/service imports codes/service on disk; codes/service importing it back closes a cycle.
    const code =
      "import { verifySecondFactor } from '../mfa/service.js';\nexport const v = verifySecondFactor;\n";
    expect(await ruleIds('apps/server/src/modules/codes/service.ts', code)).toContain(
      'import-x/no-cycle',
    );
    expect(
      await ruleIds(
        'apps/server/src/modules/codes/service.ts',
        "import { findUserById } from '../users/service.js';\nexport const f = findUserById;\n",
      ),
    ).toEqual([]);
  });

  it('accepts the layers used as intended', async () => {
    const repository =
      "import type { Db } from '../../db/connection.js';\n" +
      "export const q = (db: Db) => db.selectFrom('users').selectAll().execute();\n";
    const service =
      "import { q } from './repository.js';\nimport { findUser } from '../users/service.js';\n" +
      'export const s = [q, findUser];\n';
    const routes =
      "import { s } from './service.js';\nimport { other } from '../users/service.js';\n" +
      "import type { RequireSession } from '../../plugins/authenticate.js';\n" +
      'export const r: [unknown, unknown, RequireSession | null] = [s, other, null];\n';
    expect(await ruleIds(`${module}/repository.ts`, repository)).toEqual([]);
    expect(await ruleIds(`${module}/service.ts`, service)).toEqual([]);
    expect(await ruleIds(`${module}/routes.ts`, routes)).toEqual([]);
  });
});
