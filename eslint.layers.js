// The server's layers (docs/architecture.md): routes (HTTP) → service (rules, transactions) →
// repository (SQL). A module reaches another module through its service only, and so do the
// operator commands (cli/); nothing imports upward; SQL lives in repositories. `npm run lint`
// fails on a breach, and apps/server/src/architecture.test.ts proves it with deliberate violations.

const SERVER = 'apps/server/src';
const ROUTES = [`${SERVER}/modules/*/routes.ts`, `${SERVER}/modules/*/*-routes.ts`];
const REPOSITORIES = [
  `${SERVER}/modules/*/repository.ts`,
  `${SERVER}/modules/*/*-repository.ts`,
  `${SERVER}/messaging/repository.ts`,
];
const TESTS = [`${SERVER}/**/*.test.ts`, `${SERVER}/test/**`, `${SERVER}/**/test-support.ts`];
const LOWER = [`${SERVER}/lib/**`, `${SERVER}/db/**`, `${SERVER}/security/**`];

const noWeb = {
  group: ['@hygie/web', '**/apps/web/**'],
  message: 'The server never imports the web client.',
};
const otherRoutes = {
  group: [
    '../*/routes.js',
    '../../*/routes.js',
    '../../*/*-routes.js',
    '../*/*-routes.js',
    '../../modules/*/routes.js',
    '../modules/*/routes.js',
    '../modules/*/*-routes.js',
  ],
  message: "Routes are HTTP only: call the other module's service.",
};
const ownRoutes = {
  group: ['./routes.js', './*-routes.js'],
  message: 'Services and repositories never import routes (upward import).',
};
const otherRepositories = {
  group: [
    '../*/repository.js',
    '../../*/repository.js',
    '../../*/*-repository.js',
    '../*/*-repository.js',
    '../modules/*/repository.js',
    '../modules/*/*-repository.js',
  ],
  allowTypeImports: true,
  message: 'A module reaches another module through its service, never its repository.',
};
const services = {
  group: ['./service.js', './*-service.js', '../*/service.js', '../*/*-service.js'],
  message: 'Repositories only talk SQL: they never call services (upward import).',
};
const plugins = {
  group: ['../../plugins/*', '../plugins/*'],
  allowTypeImports: true,
  message: 'Only routes and the composition root use the HTTP plugins.',
};
const modules = {
  group: ['../modules/*', '../../modules/*', '../modules/**', '../../modules/**'],
  allowTypeImports: true,
  message: 'lib, db and security sit below the modules: they never import them.',
};

const cliReach = {
  group: [
    '**/modules/*/repository.js',
    '**/modules/*/*-repository.js',
    '**/messaging/repository.js',
    '**/modules/*/routes.js',
    '**/modules/*/*-routes.js',
    '**/plugins/*',
  ],
  allowTypeImports: true,
  message:
    'Operator commands call services, as routes do: never a repository, a route or an HTTP plugin.',
};

const restrict = (...patterns) => ['error', { patterns: [noWeb, ...patterns] }];

// Kysely's query builders; their use outside a repository is SQL outside a repository.
const SQL_MESSAGE = "SQL lives in repositories: move this query to the module's repository.ts.";
const sqlSelectors = [
  {
    selector:
      'CallExpression[callee.property.name=/^(selectFrom|updateTable|insertInto|deleteFrom|replaceInto|mergeInto)$/]',
    message: SQL_MESSAGE,
  },
  { selector: "TaggedTemplateExpression[tag.name='sql']", message: SQL_MESSAGE },
];
const transactionSelectors = ['property.name', 'name'].map((callee) => ({
  selector: `CallExpression[callee.${callee}='transaction']`,
  message: 'Routes never open a transaction: the service owns it.',
}));
// Every transaction is begun through db/transaction.ts: on PostgreSQL its statements are
// pipelined; Kysely's own would send them one round trip each.
const kyselyTransaction = {
  selector: "CallExpression[callee.property.name='transaction'][arguments.length=0]",
  message: "Begin a transaction with transaction(db, fn) from db/transaction.ts, not Kysely's own.",
};

// Each table is written by one repository only (its table group). Other repositories may read it
// in a join, but a write goes through the owning module's service.
const TABLE_OWNERS = {
  [`${SERVER}/modules/users/repository.ts`]: ['users', 'consents'],
  [`${SERVER}/modules/sessions/repository.ts`]: ['sessions', 'known_browsers'],
  [`${SERVER}/modules/consent/repository.ts`]: ['terms_texts'],
  [`${SERVER}/modules/devices/repository.ts`]: ['trusted_devices'],
  [`${SERVER}/modules/throttle/repository.ts`]: ['throttles'],
  [`${SERVER}/modules/settings/repository.ts`]: ['settings'],
  [`${SERVER}/modules/platforms/repository.ts`]: ['platforms', 'platform_access'],
  [`${SERVER}/modules/biometrics/repository.ts`]: ['credentials', 'biometric_challenges'],
  [`${SERVER}/modules/recovery-codes/repository.ts`]: ['recovery_codes'],
  [`${SERVER}/modules/oidc/repository.ts`]: ['oidc_store'],
  [`${SERVER}/modules/audit/repository.ts`]: ['audit_events'],
  [`${SERVER}/modules/codes/repository.ts`]: ['one_time_codes'],
  [`${SERVER}/modules/links/repository.ts`]: ['link_tokens'],
  [`${SERVER}/modules/identity-providers/repository.ts`]: ['identity_links'],
  [`${SERVER}/messaging/repository.ts`]: ['outbox'],
};
const WRITES =
  'CallExpression[callee.property.name=/^(updateTable|insertInto|deleteFrom|replaceInto|mergeInto)$/]';
const writeOutside = (tables) => ({
  selector: `${WRITES}:not([arguments.0.value=/^(${tables.join('|')})$/])`,
  message: `This repository writes only ${tables.join(', ')}: call the service of the module that owns the table.`,
});
const tableOwnership = [
  {
    files: REPOSITORIES,
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: WRITES,
          message: 'This repository owns no table: call the service of the module that does.',
        },
        kyselyTransaction,
      ],
    },
  },
  ...Object.entries(TABLE_OWNERS).map(([file, tables]) => ({
    files: [file],
    rules: { 'no-restricted-syntax': ['error', writeOutside(tables), kyselyTransaction] },
  })),
];

export function serverLayers() {
  return [
    { files: [`${SERVER}/**/*.ts`], rules: { 'no-restricted-imports': restrict() } },
    {
      files: [`${SERVER}/modules/**/*.ts`],
      ignores: [...ROUTES, ...REPOSITORIES, ...TESTS],
      rules: {
        'no-restricted-imports': restrict(otherRoutes, ownRoutes, otherRepositories, plugins),
      },
    },
    {
      files: ROUTES,
      rules: { 'no-restricted-imports': restrict(otherRoutes, otherRepositories) },
    },
    {
      files: REPOSITORIES,
      rules: { 'no-restricted-imports': restrict(otherRoutes, ownRoutes, services, plugins) },
    },
    {
      files: [`${SERVER}/plugins/**/*.ts`],
      ignores: [...TESTS],
      rules: { 'no-restricted-imports': restrict(otherRoutes, otherRepositories) },
    },
    {
      files: [`${SERVER}/cli.ts`, `${SERVER}/cli/**/*.ts`],
      ignores: TESTS,
      rules: { 'no-restricted-imports': restrict(cliReach) },
    },
    {
      files: LOWER,
      ignores: TESTS,
      rules: { 'no-restricted-imports': restrict(modules, plugins) },
    },
    {
      files: [`${SERVER}/**/*.ts`],
      ignores: [...REPOSITORIES, ...TESTS, `${SERVER}/db/**`],
      rules: { 'no-restricted-syntax': ['error', ...sqlSelectors, kyselyTransaction] },
    },
    {
      files: ROUTES,
      rules: { 'no-restricted-syntax': ['error', ...sqlSelectors, ...transactionSelectors] },
    },
    ...tableOwnership,
  ];
}
