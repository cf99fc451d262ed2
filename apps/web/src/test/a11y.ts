import axe from 'axe-core';
import { expect } from 'vitest';

/** Runs axe-core (WCAG 2.1 A/AA rules) on the document and fails with the violations. */
export async function expectNoAxeViolations(root: Element = document.body): Promise<void> {
  const results = await axe.run(root, {
    runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    // jsdom has no layout: contrast is checked on the theme (theme.test.ts) and in e2e.
    rules: { 'color-contrast': { enabled: false } },
  });
  const violations = results.violations.map(
    (violation) =>
      `${violation.id}: ${violation.help} — ${violation.nodes.map((node) => node.html).join(' | ')}`,
  );
  expect(violations).toEqual([]);
}

/** Page structure every screen must have. */
export function expectPageStructure(brandName: string): void {
  const headings = document.querySelectorAll('h1');
  expect(headings).toHaveLength(1);
  expect(document.querySelectorAll('main')).toHaveLength(1);
  expect(document.title).toBe(`${headings[0]?.textContent ?? ''} · ${brandName}`);
}
