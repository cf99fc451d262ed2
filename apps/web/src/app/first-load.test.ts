import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '@hygie/domain';
import { innerComponent } from '../lib/mui-root';
import { createI18nInstance, FIRST_NAMESPACES, initI18n, NAMESPACES } from './i18n';
import { namespacesOf, routes } from './routes';

// What the login page's first load carries, read from the code: the modules it imports.
// Translations: only FIRST_NAMESPACES (main.tsx); every other screen's route names what it needs
// beyond them (routes.tsx) — from the "namespace:key" strings of the modules (the project writes
// every key whole, or as a literal namespace and prefix: `errors:${…}`). Schemas: zod/mini only,
// classic zod loads with the screens after it.

/** The domain's modules (from its src/, e.g. "schemas/api.ts") → their text. */
const domainSources = Object.fromEntries(
  Object.entries(
    import.meta.glob<string>(
      ['../../../../packages/domain/src/**/*.ts', '!../../../../packages/domain/src/**/*.test.ts'],
      { eager: true, query: '?raw', import: 'default' },
    ),
  ).map(([file, text]): [string, string] => [
    file.replace(/^.*\/packages\/domain\/src\//, ''),
    text,
  ]),
);

/** Source file (from src/, e.g. "app/main.tsx") → its text. */
const sources = Object.fromEntries(
  Object.entries(
    import.meta.glob<string>(['../**/*.{ts,tsx}', '!../**/*.test.{ts,tsx}'], {
      eager: true,
      query: '?raw',
      import: 'default',
    }),
  ).map(([file, text]): [string, string] => [fromSrc(file, 'app/'), text]),
);

/** `specifier` imported from `importer` (both relative to src/), as a path from src/. */
function fromSrc(specifier: string, importer: string): string {
  return new URL(specifier, `file:///src/${importer}`).pathname.replace(/^\/src\//, '');
}

/** The source file a relative import names (without its extension, or a folder's index). */
function resolveImport(specifier: string, importer: string): string | undefined {
  const base = fromSrc(specifier, importer);
  return [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`].find(
    (file) => file in sources,
  );
}

/** The static imports and re-exports of a module (types aside), not its dynamic `import()`s. */
const STATIC_IMPORT =
  /(?:^|\n)\s*(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/g;

/** A dynamic import: `import('./x')`. */
const DYNAMIC_IMPORT = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

/**
 * Every module `files` load: themselves and what they import, transitively (src/ only). With
 * `dynamic`, what they load later too (a page's lazy dialog renders under the page's route), but
 * for the dynamic imports of the modules `dynamicExcept` names.
 */
function moduleGraph(
  files: string[],
  { dynamic = false, dynamicExcept = [] }: { dynamic?: boolean; dynamicExcept?: string[] } = {},
): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = sources[file] ?? '';
    const specifiers = [
      ...text.matchAll(STATIC_IMPORT),
      ...(dynamic && !dynamicExcept.includes(file) ? text.matchAll(DYNAMIC_IMPORT) : []),
    ].map(([, specifier = '']) => specifier);
    for (const specifier of specifiers) {
      const imported = specifier.startsWith('.') ? resolveImport(specifier, file) : undefined;
      if (imported) visit(imported);
    }
  };
  files.forEach(visit);
  return [...seen];
}

const NS = NAMESPACES.join('|');
/** A whole key: 'login:title'. */
const KEY = new RegExp(`(['"\`])((?:${NS}):[\\w.]+)\\1`, 'g');
/** A key built from a literal prefix: `login:idp.errors.${code}` gives 'login:idp.errors.'. */
const KEY_PREFIX = new RegExp(`\`((?:${NS}):[\\w.]*)\\$\\{`, 'g');
/** Any use of a namespace, whole keys and keys built from a prefix (`errors:${code}`) alike. */
const NAMESPACE_USE = new RegExp(`['"\`](${NS}):`, 'g');

function keysUsed(files: string[]): string[] {
  return [
    ...new Set(files.flatMap((file) => [...(sources[file] ?? '').matchAll(KEY)].map((m) => m[2]))),
  ].flatMap((key) => (key ? [key] : []));
}

/** namespace → the files using it. */
function namespacesUsed(files: string[]): Map<string, string[]> {
  const used = new Map<string, string[]>();
  for (const file of files) {
    for (const [, namespace = ''] of (sources[file] ?? '').matchAll(NAMESPACE_USE)) {
      const users = used.get(namespace) ?? [];
      if (!users.includes(file)) used.set(namespace, [...users, file]);
    }
  }
  return used;
}

/** What the browser runs before the login page's first render (bench/web-chunks.mjs follows the same). */
const FIRST_ENTRIES = [
  'app/main.tsx',
  // Imported by the entry once a page the server drew is painted, preloaded with it.
  'app/boot.tsx',
  'app/layouts/security-layout.tsx',
  'features/auth/login-page.tsx',
];
const FIRST_LOAD = moduleGraph(FIRST_ENTRIES);

/**
 * What the login page may show with the first translations only: its first load, and what the
 * application loads later on any screen (the session warning, the notifications…), not the other
 * routes' pages (routes.tsx), which load their own.
 */
const FIRST_SCREEN = moduleGraph(FIRST_ENTRIES, {
  dynamic: true,
  dynamicExcept: ['app/routes.tsx'],
});

/** "namespace (file, …)" for each namespace `files` use outside `loaded`. */
function unloaded(files: string[], loaded: readonly string[]): string[] {
  return [...namespacesUsed(files)]
    .filter(([namespace]) => !loaded.includes(namespace))
    .map(([namespace, users]) => `${namespace} (${users.join(', ')})`);
}

/** A module that imports a value of classic zod (`import type` aside; zod/mini is another path). */
const CLASSIC_ZOD = /(?:^|\n)\s*import\s+(?!type\s)[^;]*?\sfrom\s+['"]zod['"]/;

/** The values `files` import from the domain's index. */
function domainImports(files: string[]): string[] {
  return files.flatMap((file) =>
    [...(sources[file] ?? '').matchAll(/import\s+\{([^}]*)\}\s+from\s+'@hygie\/domain'/g)].flatMap(
      ([, names = '']) =>
        names
          .split(',')
          .map((name) => name.trim().split(/\s+as\s+/)[0] ?? '')
          .filter((name) => name && !name.startsWith('type ')),
    ),
  );
}

/** The domain module defining `name` (export const, function, class). */
function domainModuleOf(name: string): string | undefined {
  const definition = new RegExp(`export (?:const|function|class|let) ${name}\\b`);
  return Object.keys(domainSources).find((file) => definition.test(domainSources[file] ?? ''));
}

/** `files` of the domain and the domain modules they import (`./x.js` is x.ts), transitively. */
function domainGraph(files: string[]): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const [, specifier = ''] of (domainSources[file] ?? '').matchAll(STATIC_IMPORT)) {
      if (!specifier.startsWith('.')) continue;
      const imported = new URL(specifier.replace(/\.js$/, '.ts'), `file:///${file}`).pathname.slice(
        1,
      );
      if (imported in domainSources) visit(imported);
    }
  };
  files.forEach(visit);
  return [...seen];
}

/** A module that imports a value of a package (`import type` aside). */
function importsValueOf(text: string, pkg: string): boolean {
  return new RegExp(`(?:^|\\n)\\s*import\\s+(?!type\\s)[^;]*?\\sfrom\\s+['"]${pkg}['"]`).test(text);
}

describe('forms on the login page’s first load', () => {
  it('keep their state without react-hook-form (lib/form-state), which loads with the screens after', () => {
    expect(FIRST_LOAD).toContain('lib/form-state.ts');
    expect(
      importsValueOf(
        sources['features/registration/registration-form.tsx'] ?? '',
        'react-hook-form',
      ),
    ).toBe(true);
    const users = FIRST_LOAD.filter((file) =>
      ['react-hook-form', '@hookform/resolvers/zod'].some((pkg) =>
        importsValueOf(sources[file] ?? '', pkg),
      ),
    );
    expect(users).toEqual([]);
  });
});

describe('zod on the login page’s first load', () => {
  it('finds the domain modules the first load uses', () => {
    expect(domainModuleOf('currentUserMiniSchema')).toBe('schemas/session.ts');
    expect(domainModuleOf('parseErrorData')).toBe('error-data.ts');
  });

  it('is zod/mini only: no module of the first load imports classic zod', () => {
    const names = [...new Set(domainImports(FIRST_LOAD))];
    const unknown = names.filter((name) => !domainModuleOf(name));
    // Constants and types re-exported under another name would hide their module: none today.
    expect(unknown).toEqual([]);
    const domain = domainGraph([
      // Loaded with the domain whatever is used of it (package.json `sideEffects`).
      'schemas/issue-messages.ts',
      ...names.flatMap((name) => domainModuleOf(name) ?? []),
    ]);
    expect(domain).toContain('error-data.ts');
    const classic = [
      ...FIRST_LOAD.filter((file) => CLASSIC_ZOD.test(sources[file] ?? '')),
      ...domain
        .filter((file) => CLASSIC_ZOD.test(domainSources[file] ?? ''))
        .map((f) => `domain:${f}`),
    ];
    expect(classic).toEqual([]);
  });
});

describe('translations loaded for each screen', () => {
  it('follows the login page’s imports', () => {
    expect(FIRST_LOAD).toEqual(
      expect.arrayContaining([
        'app/routes.tsx',
        'components/site-footer.tsx',
        'components/language-switcher.tsx',
        'features/auth/identity-provider-sign-in.tsx',
        'features/auth/biometric-sign-in.tsx',
        'lib/error-message.ts',
      ]),
    );
    expect(FIRST_LOAD).not.toContain('features/registration/register-page.tsx');
    expect(keysUsed(FIRST_LOAD)).toContain('login:title');
  });

  it('the login page and its layout use only the first namespaces', () => {
    expect(FIRST_SCREEN).toEqual(
      expect.arrayContaining(['app/session-warning.tsx', 'app/notification-layer.tsx']),
    );
    expect(unloaded(FIRST_SCREEN, FIRST_NAMESPACES)).toEqual([]);
  });

  it.each(LANGUAGES)(
    'every key of the login page’s first load is there in %s',
    async (language) => {
      const i18n = await initI18n(createI18nInstance(), language, FIRST_NAMESPACES);
      const missing = keysUsed(FIRST_SCREEN).filter(
        (key) => !i18n.exists(key) && !i18n.exists(key, { count: 1 }),
      );
      expect(missing).toEqual([]);
      const notLoaded = [...namespacesUsed(FIRST_SCREEN).keys()].filter(
        (namespace) => !i18n.hasLoadedNamespace(namespace),
      );
      expect(notLoaded).toEqual([]);
    },
  );

  it.each(LANGUAGES)(
    'the login page’s own namespace holds only what its first screen shows, in %s',
    async (language) => {
      // `login` is split from `security` so that the first load does not carry the other
      // security screens' texts: a key no first-screen module uses belongs in `security`.
      const i18n = await initI18n(createI18nInstance(), language, ['login']);
      const keys = (prefix: string, value: unknown): string[] =>
        typeof value === 'object' && value !== null
          ? Object.entries(value).flatMap(([key, inner]) => keys(`${prefix}${key}.`, inner))
          : [prefix.slice(0, -1).replace(/_(?:zero|one|two|few|many|other)$/, '')];
      const used = keysUsed(FIRST_SCREEN);
      const prefixes = [
        ...FIRST_SCREEN.flatMap((file) => [...(sources[file] ?? '').matchAll(KEY_PREFIX)]),
      ].map(([, prefix = '']) => prefix);
      const unused = keys('login:', i18n.getResourceBundle(language, 'login')).filter(
        (key) => !used.includes(key) && !prefixes.some((prefix) => key.startsWith(prefix)),
      );
      expect(unused).toEqual([]);
      expect(used).toContain('login:title');
    },
  );

  it('every other screen’s route loads the namespaces its modules use', async () => {
    // Each lazy route's module: the one of routes.tsx's imports whose default export it renders.
    const routeModules = import.meta.glob<{ default: unknown }>([
      './layouts/*.tsx',
      '../features/**/*.tsx',
      '!../**/*.test.tsx',
    ]);
    const imported = [...(sources['app/routes.tsx'] ?? '').matchAll(/import\('(\.[^']+)'\)/g)]
      .flatMap(([, specifier = '']) => resolveImport(specifier, 'app/routes.tsx') ?? [])
      .filter((file) => file !== 'lib/mui-root.tsx');
    const byComponent = new Map<unknown, string>(
      await Promise.all(
        imported.map(async (file): Promise<[unknown, string]> => {
          const load = Object.entries(routeModules).find(
            ([key]) => fromSrc(key, 'app/') === file,
          )?.[1];
          if (!load) throw new Error(`${file} is not among the route modules`);
          return [(await load()).default, file];
        }),
      ),
    );

    const problems: string[] = [];
    let checked = 0;
    const walk = async (tree: RouteObject[], inherited: readonly string[]) => {
      for (const route of tree) {
        const loaded = [...inherited, ...namespacesOf(route)];
        if (typeof route.lazy === 'function') {
          const { Component } = await route.lazy();
          const isComponent = (value: unknown): value is ComponentType =>
            typeof value === 'function';
          const file = isComponent(Component)
            ? byComponent.get(innerComponent(Component))
            : undefined;
          if (!file) throw new Error(`no module found for the route ${route.path ?? '(layout)'}`);
          checked++;
          const missing = unloaded(moduleGraph([file], { dynamic: true }), loaded);
          if (missing.length > 0) problems.push(`${file}: ${missing.join('; ')}`);
        }
        await walk(route.children ?? [], loaded);
      }
    };
    await walk(routes, FIRST_NAMESPACES);
    expect(checked).toBe(imported.length);
    expect(problems).toEqual([]);
  });
});

/** What a page the server drew runs first: the entry and the login page's island. */
const ISLAND_LOAD = moduleGraph(['app/main.tsx', 'app/island/start.tsx']);

/** The libraries the whole client brings, which the island does without (docs/web.md). */
const WHOLE_CLIENT_PACKAGES = [
  'react-router',
  'i18next',
  'react-i18next',
  '@tanstack/react-query',
  'zod',
  'zod/mini',
  'react-hook-form',
  '@mui/material',
];

describe('the login page’s island', () => {
  it('is the login page’s views and React alone: no router, i18next, TanStack Query, zod or MUI', () => {
    expect(ISLAND_LOAD).toEqual(
      expect.arrayContaining([
        'features/auth/login-view.tsx',
        'components/security-frame.tsx',
        'app/island/texts.ts',
      ]),
    );
    const users = ISLAND_LOAD.flatMap((file) =>
      WHOLE_CLIENT_PACKAGES.filter((pkg) => importsValueOf(sources[file] ?? '', pkg)).map(
        (pkg) => `${file} imports ${pkg}`,
      ),
    );
    expect(users).toEqual([]);
    // Nor the whole client's modules, but by a dynamic import.
    expect(ISLAND_LOAD).not.toContain('app/boot.tsx');
    expect(ISLAND_LOAD).not.toContain('lib/api-client.ts');
  });

  it('reads only domain modules without zod', () => {
    const modules = domainGraph(
      domainImports(ISLAND_LOAD).flatMap((name) => domainModuleOf(name) ?? []),
    );
    expect(modules.length).toBeGreaterThan(0);
    expect(
      modules.filter((file) =>
        ['zod', 'zod/mini'].some((pkg) => importsValueOf(domainSources[file] ?? '', pkg)),
      ),
    ).toEqual([]);
  });
});
