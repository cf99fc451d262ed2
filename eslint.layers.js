// The server's layers (docs/architecture.md): routes (HTTP) → service (rules, transactions) →
// repository (SQL). A module reaches another module through its service only; nothing imports
// upward; SQL lives in repositories. `npm run lint` fails on a breach, and
// apps/server/src/architecture.test.ts proves it with deliberate violations.

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
const transactionSelector = {
  selector: "CallExpression[callee.property.name='transaction']",
  message: 'Routes never open a transaction: the service owns it.',
};

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
      files: LOWER,
      ignores: TESTS,
      rules: { 'no-restricted-imports': restrict(modules, plugins) },
    },
    {
      files: [`${SERVER}/**/*.ts`],
      ignores: [...REPOSITORIES, ...TESTS, `${SERVER}/db/**`],
      rules: { 'no-restricted-syntax': ['error', ...sqlSelectors] },
    },
    {
      files: ROUTES,
      rules: { 'no-restricted-syntax': ['error', ...sqlSelectors, transactionSelector] },
    },
  ];
}
