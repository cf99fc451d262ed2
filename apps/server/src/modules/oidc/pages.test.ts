import { describe, expect, it } from 'vitest';
import { consentPage, logoutPage } from './pages.js';

// The provider's own pages end, like every page of the portal, with the legal links.
describe('the provider’s pages', () => {
  it.each([
    ['fr', 'ltr', 'Mentions légales', 'Accessibilité : non conforme'],
    ['en', 'ltr', 'Legal notice', 'Accessibility: not compliant'],
    ['ar', 'rtl', 'الإشعار القانوني', 'إمكانية الوصول: غير مطابق'],
  ] as const)(
    'in %s (%s) end with a footer linking to the legal pages',
    (language, dir, legal, accessibility) => {
      for (const html of [
        logoutPage(language, 'Hygie', '<form id="op.logoutForm"></form>'),
        consentPage(language, 'Agenda', ['openid'], '/oidc/consent', 'token'),
      ]) {
        expect(html).toContain(`<html lang="${language}" dir="${dir}">`);
        const footer = /<footer>([\s\S]*)<\/footer>/.exec(html)?.[1] ?? '';
        expect(html.indexOf('<footer>')).toBeGreaterThan(html.indexOf('</main>'));
        expect(footer).toMatch(/<nav aria-label="[^"]+">/);
        const links = [...footer.matchAll(/<a href="([^"]+)">([^<]+)<\/a>/g)].map((m) => [
          m[1],
          m[2],
        ]);
        expect(links.map(([href]) => href)).toEqual([
          '/legal-notice',
          '/privacy',
          '/accessibility',
          '/contact',
        ]);
        expect(links[0]?.[1]).toBe(legal);
        expect(links[2]?.[1]).toBe(accessibility);
      }
    },
  );
});
