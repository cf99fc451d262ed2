import axe from 'axe-core';
import { expect } from 'vitest';
import type { Brand, Language } from '@hygie/domain';

/** Runs axe-core (WCAG 2.1 A/AA rules) on the document and fails with the violations. */
export async function expectNoAxeViolations(root: Element = document.body): Promise<void> {
  const results = await axe.run(root, {
    // Only violations are read: skip collecting every passing node (much faster, same verdict).
    resultTypes: ['violations'],
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

/** A language and brand every screen is checked in; axe runs in one variant per language. */
export interface A11yVariant {
  language: Language;
  brand: Brand;
  axe: boolean;
}

/**
 * Each language once with axe (French with Hygie, English with TeleCare, Arabic with Hygie), and
 * Arabic again with TeleCare for the page structure only: both brands are seen in both directions
 * without running axe twice for one language.
 */
export const A11Y_VARIANTS: readonly A11yVariant[] = [
  { language: 'fr', brand: 'hygie', axe: true },
  { language: 'en', brand: 'telecare', axe: true },
  { language: 'ar', brand: 'hygie', axe: true },
  { language: 'ar', brand: 'telecare', axe: false },
];
