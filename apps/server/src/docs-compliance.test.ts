// docs/compliance/ans-referentiel.md: every test file it names as proof exists, and the counts at
// its top are the counts of its rows, so the matrix cannot rot as files move.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.join(import.meta.dirname, '..', '..', '..');
const matrix = fs.readFileSync(path.join(root, 'docs', 'compliance', 'ans-referentiel.md'), 'utf8');

/** The matrix's rows: `| U1 | requirement | status | how | proof |`. */
const rows = matrix
  .split('\n')
  .filter((line) => /^\| [UP]\d+ \|/.test(line))
  .map((line) => line.split(' | ').map((cell) => cell.trim()));

describe('the ANS conformity matrix', () => {
  it('has rows for both parts, each with a known status', () => {
    expect(rows.some(([id]) => id?.startsWith('| U'))).toBe(true);
    expect(rows.some(([id]) => id?.startsWith('| P'))).toBe(true);
    for (const row of rows) {
      expect(['met', "operator's part", 'not met yet']).toContain(row[2]);
    }
  });

  it('names only test files that exist', () => {
    const named = [...matrix.matchAll(/`([\w./-]+\.(?:test|spec)\.tsx?)`/g)].map((m) => m[1]);
    expect(named.length).toBeGreaterThan(20);
    const missing = named.filter((file) => file && !fs.existsSync(path.join(root, file)));
    expect(missing).toEqual([]);
  });

  it('every met row names its proof', () => {
    const unproven = rows.filter(
      (row) => row[2] === 'met' && !/\.(test|spec)\.tsx?`/.test(row[4] ?? ''),
    );
    expect(unproven.map((row) => row[0])).toEqual([]);
  });

  it('gives the counts of its rows at the top', () => {
    const count = (status: string) => rows.filter((row) => row[2] === status).length;
    expect(matrix).toContain(
      `**Counts: ${count('met')} met · ${count("operator's part")} operator's part · ` +
        `${count('not met yet')} not met yet (${rows.length} requirements).**`,
    );
  });
});
