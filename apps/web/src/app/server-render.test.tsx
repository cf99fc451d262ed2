// @vitest-environment node
// The renderer runs in the server's process: no DOM here, as there.
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { BRAND_COLORS, LANGUAGES, type Language, type PageRenderRequest } from '@hygie/domain';
import { initI18n } from './i18n';
import { pageStateSchema, PAGE_STATE_ID } from './page-state';
import { renderPage } from './server-render';
import { CONFIG, STYLESHEETS, TEMPLATE } from '../test/server-page';

function draw(request: Partial<PageRenderRequest> = {}): Promise<string | null> {
  return renderPage({
    url: '/security/login',
    hostname: 'portal.hygie.test',
    language: 'fr',
    config: CONFIG,
    template: TEMPLATE,
    stylesheets: STYLESHEETS,
    ...request,
  });
}

async function drawn(request: Partial<PageRenderRequest> = {}): Promise<string> {
  const html = await draw(request);
  if (html === null) throw new Error('the page was not drawn');
  return html;
}

/** The state the page carries for the browser, parsed as the browser parses it. */
function stateOf(html: string) {
  const text = new RegExp(
    `<script type="application/json" id="${PAGE_STATE_ID}">([^<]*)</script>`,
  ).exec(html)?.[1];
  return pageStateSchema.parse(JSON.parse(text ?? 'null'));
}

describe('the pages the server draws', () => {
  it.each(LANGUAGES)(
    'draws the login page in %s, its title, language and direction',
    async (language: Language) => {
      const i18n = await initI18n(i18next.createInstance(), language);
      const html = await drawn({ language });
      const direction = language === 'ar' ? 'rtl' : 'ltr';
      expect(html).toContain(`<html lang="${language}" dir="${direction}">`);
      expect(html).toContain(`<title>${i18n.t('login:title')} · Hygie</title>`);
      expect(html).toContain(
        `<h1 id="page-title" class="hy-page-title">${i18n.t('login:title')}</h1>`,
      );
      for (const key of ['login:password', 'login:submit', 'login:register']) {
        expect(html).toContain(i18n.t(key));
      }
      expect(html).toMatch(/<input[^>]*id="login-username"/);
      expect(html).toMatch(/<input[^>]*type="password"[^>]*id="login-password"/);
      // The form waits for the page's code: nothing is typed, or sent, before.
      expect(html).toMatch(/<fieldset disabled=""/);
      expect(stateOf(html)).toEqual({ language, brand: 'hygie', config: CONFIG });
      // The rest of the template is kept.
      expect(html).toContain('<script type="module" crossorigin src="/assets/index.js"></script>');
    },
  );

  it('draws the brand the address names: ?branding=, or the host name', async () => {
    for (const request of [
      { url: '/security/login?branding=telecare' },
      { hostname: 'telecare.hygie.test' },
    ]) {
      const html = await drawn(request);
      expect(html).toContain('data-brand="telecare"');
      expect(html).toContain('<title>Connexion · Hygie Télésoin</title>');
      expect(html).toContain(`<meta name="theme-color" content="${BRAND_COLORS.telecare.primary}"`);
      expect(stateOf(html).brand).toBe('telecare');
    }
  });

  it('draws the configured identity providers’ buttons', async () => {
    const html = await drawn({
      config: { ...CONFIG, identityProviders: ['psc', 'franceconnect'] },
    });
    expect(html).toContain('data-testid="idp-psc"');
    expect(html).toContain('data-testid="idp-franceconnect"');
    expect(await drawn()).not.toContain('data-testid="identity-providers"');
  });

  it('draws no other page: the browser draws them', async () => {
    for (const url of [
      '/',
      '/profile',
      '/security/register',
      '/security/forgot-password',
      '/nowhere',
    ]) {
      expect(await draw({ url })).toBeNull();
    }
  });

  it('inserts what the address brings as text, `$` patterns included', async () => {
    const html = await drawn({
      url: `/security/login?idp_link=${encodeURIComponent(`$' $& "><script>alert(1)</script>`)}`,
    });
    expect(html).not.toContain('<script>alert(1)');
    expect(html).toContain('$&#x27; $&amp; &quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    // The template around the root is intact: `$'` was not taken for "the rest of the template".
    expect(html.match(/<\/html>/g)).toHaveLength(1);
    expect(html.match(/<div id="root">/g)).toHaveLength(1);
  });

  it('keeps the state’s text from closing its script element', async () => {
    const contactEmail = '</script><script>alert(1)</script>@hygie.test';
    const html = await drawn({ config: { ...CONFIG, contactEmail } });
    expect(html).not.toContain('<script>alert(1)');
    expect(stateOf(html).config.contactEmail).toBe(contactEmail);
  });

  /** The drawn page's `<head>`. */
  function headOf(html: string): string {
    return html.slice(0, html.indexOf('</head>'));
  }
  /** The files of the font faces in the page's `<style>`. */
  function facesOf(html: string): string[] {
    return [...html.matchAll(/@font-face\{[^}]*?url\(\/assets\/([\w-]+)\.woff2\)/g)].map(
      ([, file = '']) => file,
    );
  }
  /** The fonts the page preloads. */
  function preloadsOf(html: string): string[] {
    return [
      ...html.matchAll(/<link rel="preload" as="font"[^>]*href="\/assets\/([\w-]+)\.woff2"/g),
    ].map(([, file = '']) => file);
  }

  it('carries its style sheet in a <style>, not a link that holds back its first paint', async () => {
    const head = headOf(await drawn());
    expect(head).not.toContain('rel="stylesheet"');
    expect(head).toContain('<style data-stylesheet="/assets/index.css">');
    // The first screens' rules are all there.
    expect(head).toContain('body{margin:0;font-family:Roboto,"Noto Sans Arabic",sans-serif}');
    expect(head).toContain('.hy-page-title{font-size:2.125rem}');
    expect(head.match(/<style/g)).toHaveLength(1);
  });

  it.each(['fr', 'en'] as const)(
    'carries and preloads the Latin fonts only in %s',
    async (language) => {
      const html = await drawn({ language });
      expect(facesOf(html)).toEqual([
        'roboto-latin-400-normal-a1',
        'roboto-latin-500-normal-b2',
        'roboto-latin-700-normal-d4',
        'roboto-latin-ext-400-normal-e5',
      ]);
      expect(html).not.toContain('noto-sans-arabic');
      expect(preloadsOf(html)).toEqual([
        'roboto-latin-400-normal-a1',
        'roboto-latin-500-normal-b2',
      ]);
    },
  );

  it('carries and preloads the Arabic fonts only in Arabic', async () => {
    const html = await drawn({ language: 'ar' });
    expect(facesOf(html)).toEqual([
      'noto-sans-arabic-arabic-400-normal-f6',
      'noto-sans-arabic-arabic-500-normal-g7',
      'noto-sans-arabic-arabic-700-normal-h8',
      'noto-sans-arabic-latin-400-normal-i9',
    ]);
    expect(html).not.toContain('roboto-');
    expect(preloadsOf(html)).toEqual([
      'noto-sans-arabic-arabic-400-normal-f6',
      'noto-sans-arabic-arabic-500-normal-g7',
    ]);
  });

  it('keeps the style sheet’s text from closing its <style>', async () => {
    const head = headOf(await drawn());
    // In CSS, `\/` is `/`: the rule is the same, and its text is not the end of the element.
    expect(head).toContain(
      ".hy-quote::before{content:'<\\/style><img src=x onerror=alert(2)>'}</style>",
    );
    expect(head.match(/<\/style/gi)).toHaveLength(1);
  });

  it('links a style sheet the server does not have, and keeps the template’s preloads', async () => {
    const head = headOf(await drawn({ stylesheets: {} }));
    expect(head).toContain('<link rel="stylesheet" crossorigin href="/assets/index.css">');
    expect(head).not.toContain('<style');
    expect(preloadsOf(head)).toEqual(['roboto-latin-400-normal-a1', 'roboto-latin-500-normal-b2']);
  });

  it.each(LANGUAGES)(
    'preloads the island and its %s translations, not the whole client',
    async (language) => {
      const html = await drawn({ language });
      const preloads = [...html.matchAll(/<link rel="modulepreload"[^>]*href="([^"]+)"/g)].map(
        ([, href]) => href,
      );
      expect(preloads.sort()).toEqual(
        [`/assets/locales-${language}.js`, '/assets/island.js'].sort(),
      );
      expect(html).not.toContain('hy-first-translations');
    },
  );

  it('draws nothing into a template without its root', async () => {
    expect(await draw({ template: '<!doctype html><html><body></body></html>' })).toBeNull();
  });
});
