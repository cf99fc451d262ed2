import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The layer rules (style.md): routes hold no SQL and no transaction; a module reaches another one
// through its service, never its routes or repository. Modules join this list once they follow them.
const LAYERED = ['admin', 'biometrics', 'oidc', 'platforms'];
// Imports still allowed until their owner offers a service for them.
const PENDING = new Set(['users/repository.js']);

const MODULES = import.meta.dirname;
const SQL = /\b(selectFrom|updateTable|insertInto|deleteFrom)\(|\.transaction\(\)/;

function sources(module: string): { file: string; text: string }[] {
  const dir = path.join(MODULES, module);
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
    .map((name) => ({
      file: `${module}/${name}`,
      text: fs.readFileSync(path.join(dir, name), 'utf8'),
    }));
}

/** The other modules' files a source imports at run time (type-only imports are left out). */
function crossModuleImports(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(
    /^import (?!type )[^;]*? from '\.\.\/([a-z-]+\/[a-z-]+\.js)';/gms,
  )) {
    if (match[1]) found.push(match[1]);
  }
  return found;
}

describe.each(LAYERED)('the %s module', (module) => {
  it('keeps SQL and transactions out of its route files', () => {
    const routes = sources(module).filter(({ file }) => /routes/.test(path.basename(file)));
    for (const { file, text } of routes) expect(text, file).not.toMatch(SQL);
  });

  it('reaches other modules through their services, never their routes or repositories', () => {
    for (const { file, text } of sources(module)) {
      const wrong = crossModuleImports(text).filter(
        (target) => /routes|repository/.test(target) && !PENDING.has(target),
      );
      expect(wrong, file).toEqual([]);
    }
  });
});

it('platforms does not import admin (admin calls the platforms service, not the reverse)', () => {
  for (const { file, text } of sources('platforms')) {
    expect(text, file).not.toMatch(/from '\.\.\/admin\//);
  }
});
