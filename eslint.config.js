import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import comments from '@eslint-community/eslint-plugin-eslint-comments/configs';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { serverLayers } from './eslint.layers.js';

const TYPED = ['apps/server/**/*.ts', 'packages/domain/**/*.ts', 'apps/web/**/*.{ts,tsx}'];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/dist-ssr/**',
      'data/**',
      'artefacts/**',
      'test-results/**',
      'playwright-report/**',
      'bench/results/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  // A rule is switched off only for one line and with its reason (`-- why`); a stale one fails.
  comments.recommended,
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@eslint-community/eslint-comments/require-description': 'error',
      '@eslint-community/eslint-comments/no-use': [
        'error',
        { allow: ['eslint-disable-next-line', 'eslint-disable-line'] },
      ],
    },
  },
  // Type-aware rules (floating promises, unsafe any, unbound methods…) for the server, the domain
  // package and the web app, typed by each workspace's own tsconfig (the web one includes its vite
  // and vitest configs). Plain .js/.mjs files keep the syntactic rules only.
  {
    files: TYPED,
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: {
        projectService: {
          // The vitest configs sit outside their workspace's tsconfig `include`.
          allowDefaultProject: ['apps/server/vitest.config.ts', 'packages/domain/vitest.config.ts'],
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
  },
  // Fastify's contract: a plugin without a `done` callback, a hook and a handler return a promise,
  // so they are async even when they await nothing (a sync hook without `done` would hang).
  {
    files: [
      'apps/server/src/app.ts',
      'apps/server/src/plugins/*.ts',
      'apps/server/src/modules/*/routes.ts',
      'apps/server/src/modules/*/*-routes.ts',
    ],
    rules: { '@typescript-eslint/require-await': 'off' },
  },
  // Vitest types its asymmetric matchers (expect.any, expect.objectContaining…) as `any`.
  {
    files: ['apps/server/**/*.test.ts', 'packages/domain/**/*.test.ts'],
    rules: { '@typescript-eslint/no-unsafe-assignment': 'off' },
  },
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  // Dependency direction (architecture §2): packages never import apps; web and server never import each other.
  {
    files: ['packages/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: ['@hygie/server', '@hygie/web', '**/apps/**'] },
      ],
    },
  },
  ...serverLayers(),
  // No import cycle anywhere (a cycle makes load order and layering meaningless). Imports are
  // resolved the way TypeScript resolves them (`./x.js` → `./x.ts`, workspace packages).
  {
    files: ['apps/**/*.{ts,tsx}', 'packages/**/*.ts', 'e2e/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['apps/*/tsconfig.json', 'packages/*/tsconfig.json', 'e2e/tsconfig.json'],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  // Type assertions (`x as T`) only where a library forces one, each carrying its reason:
  // `// eslint-disable-next-line @typescript-eslint/consistent-type-assertions -- <why>`.
  // `as const` is always allowed.
  {
    files: ['**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/consistent-type-assertions': ['error', { assertionStyle: 'never' }],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': ['error', { patterns: ['@hygie/server', '**/apps/server/**'] }],
    },
  },
  {
    // The single-page platform of the interop suite: a script a browser runs, with oidc-client-ts's
    // browser bundle loaded before it (the global `oidc`).
    files: ['e2e/relying-parties/**/*.js'],
    languageOptions: { globals: { ...globals.browser, oidc: 'readonly' } },
  },
  {
    files: ['e2e/**/*.ts', 'bench/**/*.{js,mjs}', 'scripts/**/*.mjs'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
);
