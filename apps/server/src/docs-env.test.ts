// docs/deployment.md's table of environment variables names exactly what the server reads.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.join(import.meta.dirname, '..', '..', '..');
const read = (...parts: string[]) => fs.readFileSync(path.join(root, ...parts), 'utf8');

/** The keys of config.ts's `envSchema` object: the variables `loadConfig` validates. */
function schemaVariables(source: string): string[] {
  const lines = source.split('\n');
  const start = lines.findIndex((line) => line.startsWith('const envSchema = z.object({'));
  if (start < 0) throw new Error('config.ts: no `const envSchema = z.object({`');
  const end = lines.findIndex((line, i) => i > start && line.startsWith('});'));
  if (end < 0) throw new Error('config.ts: envSchema does not end');
  // Prettier indents the schema's own keys by two spaces; nested objects sit deeper.
  return lines
    .slice(start + 1, end)
    .flatMap((line) => /^ {2}([A-Z][A-Z0-9_]*):/.exec(line)?.[1] ?? []);
}

/** Variables read straight from `process.env` anywhere the server or `npm start` runs. */
/** Set by npm for the commands it runs (the CLI works where `npm run` was typed), not by operators. */
const SET_BY_NPM = ['INIT_CWD'];

function directReads(): string[] {
  const files = [
    ...fs
      .readdirSync(path.join(root, 'apps', 'server', 'src'), { recursive: true, encoding: 'utf8' })
      .filter(
        (file) =>
          file.endsWith('.ts') &&
          !file.endsWith('.test.ts') &&
          // The test helpers' TEST_DATABASE_URL and REQUIRE_POSTGRES configure the suite, not the server.
          !file.split(path.sep).includes('test'),
      )
      .map((file) => path.join('apps', 'server', 'src', file)),
    path.join('scripts', 'start.mjs'),
  ];
  return files.flatMap((file) =>
    [...read(file).matchAll(/process\.env(?:\.([A-Z][A-Z0-9_]*)|\[['"]([A-Z][A-Z0-9_]*)['"]\])/g)]
      .map((m) => m[1] ?? m[2] ?? '')
      .filter((name) => name !== '' && !SET_BY_NPM.includes(name)),
  );
}

/** The first column of the table under "## 9. Environment variables": one variable a row. */
function documentedVariables(markdown: string): string[] {
  const section = markdown.split(/^## /m).find((part) => part.includes('Environment variables\n'));
  if (!section) throw new Error('docs/deployment.md: no "Environment variables" section');
  const rows = section.split('\n').filter((line) => line.startsWith('|'));
  const [header, separator, ...body] = rows;
  expect(header).toMatch(/^\| variable \| default \| accepted values \| what it does \|$/);
  expect(separator).toMatch(/^\|(-+\|)+$/);
  return body.map((row) => {
    const first = row.split('|')[1]?.trim() ?? '';
    const name = /^`([A-Z][A-Z0-9_]*)`$/.exec(first)?.[1];
    if (!name) throw new Error(`docs/deployment.md: a row must name one variable: ${row}`);
    return name;
  });
}

describe('docs/deployment.md', () => {
  it('documents every environment variable the server reads, and none it does not', () => {
    const schema = schemaVariables(read('apps', 'server', 'src', 'config.ts'));
    // The parse found the schema: a few variables it must hold.
    expect(schema).toEqual(expect.arrayContaining(['PORT', 'DATABASE_URL', 'TRUST_PROXY']));
    expect(schema.length).toBeGreaterThan(30);
    const code = new Set([...schema, ...directReads()]);

    const documented = documentedVariables(read('docs', 'deployment.md'));
    expect(new Set(documented).size, 'a variable listed twice').toBe(documented.length);
    expect(
      [...code].filter((name) => !documented.includes(name)),
      'read by the server, missing from the table',
    ).toEqual([]);
    expect(
      documented.filter((name) => !code.has(name)),
      'in the table, read nowhere',
    ).toEqual([]);
  });
});
