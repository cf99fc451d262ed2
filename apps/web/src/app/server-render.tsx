import { renderToString } from 'react-dom/server';
import { matchRoutes } from 'react-router';
import {
  BRAND_COLORS,
  BRAND_NAMES,
  type Language,
  type PageRenderRequest,
  type RenderPage,
} from '@hygie/domain';
import { resolveBrand } from '../lib/brand';
import { documentTitle } from '../lib/document-title';
import { directionOf } from '../lib/language';
import type { Texts } from '../lib/environment';
import { STYLESHEET_ATTRIBUTE } from './drawn-styles';
import { PAGE_FACES, PRELOADED_FACES } from './fonts';
import { IslandApp, type IslandActions } from './island/island-app';
import { FIRST_TRANSLATIONS_ID, WHOLE_CLIENT_PRELOAD } from './island/preloads';
import { shellConfigOf } from './island/state';
import { createTexts, loadFirstTranslations } from './island/texts';
import { PAGE_STATE_ID, serialisePageState, type PageState } from './page-state';
import { isRouteHandle } from './root-layout';
import { routes } from './routes';

/**
 * The pages the server draws, by route name, with their title's key: the login page, which most
 * visits open first, as its island (island/island-app.tsx). Its HTML is shown before any script
 * has run (docs/web.md); the browser then hydrates the island (island/start.tsx).
 */
const DRAWN_PAGES: Readonly<Record<string, string>> = { login: 'login:title' };

/** The island on the server: the page as drawn, nothing done. */
const DRAWING: IslandActions = {
  leave: () => {},
  prefetch: () => {},
  changeLanguage: () => {},
  useSignIn: () => ({ pending: false, failure: null, submit: () => {} }),
  useBiometricWays: () => ({
    passkeys: false,
    offerNative: false,
    failure: null,
    cancelledPasskey: false,
    passkeyPending: false,
    nativePending: false,
    onPasskey: () => {},
    onNative: () => {},
  }),
};

/** The first screens' texts per language, loaded once. */
const translations = new Map<Language, Promise<Texts>>();
function textsIn(language: Language): Promise<Texts> {
  let ready = translations.get(language);
  if (!ready) {
    ready = loadFirstTranslations(language).then((loaded) => createTexts(language, loaded));
    translations.set(language, ready);
  }
  return ready;
}

/** The title key of the page at `pathname`, if the server draws it. */
function drawnPageTitle(pathname: string): string | undefined {
  const handle: unknown = matchRoutes(routes, pathname)?.at(-1)?.route.handle;
  return isRouteHandle(handle) && handle.name ? DRAWN_PAGES[handle.name] : undefined;
}

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
};
function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (char) => ESCAPES[char] ?? char);
}

const ROOT = '<div id="root"></div>';

const STYLESHEET_LINK = /<link rel="stylesheet"[^>]*? href="([^"]+)"[^>]*>/g;
const FONT_PRELOAD = /<link rel="preload" as="font"[^>]*>\s*/g;
const WHOLE_CLIENT_LINK = new RegExp(
  `<link\\b[^>]*\\b${WHOLE_CLIENT_PRELOAD.name}="${WHOLE_CLIENT_PRELOAD.value}"[^>]*>\\s*`,
  'g',
);
const FONT_FACE = /@font-face\s*\{[^}]*\}/g;
const FIRST_TRANSLATIONS = new RegExp(
  `<script type="application/json" id="${FIRST_TRANSLATIONS_ID}">([^<]*)</script>`,
);

/**
 * The template's list of first-translations chunks (route-preload.ts) replaced by the preload of
 * `language`'s: the island needs it before its first render, and would ask for it only once it
 * runs. The list is the build's own; a list it cannot read is dropped.
 */
function preloadFirstTranslations(template: string, language: Language): string {
  return template.replace(FIRST_TRANSLATIONS, (_list, json: string) => {
    let href: unknown;
    try {
      const chunks: unknown = JSON.parse(json);
      href =
        typeof chunks === 'object' && chunks !== null
          ? Object.getOwnPropertyDescriptor(chunks, language)?.value
          : undefined;
    } catch {
      return '';
    }
    return typeof href === 'string' && /^\/assets\/[\w.-]+\.js$/.test(href)
      ? `<link rel="modulepreload" crossorigin="" href="${href}">`
      : '';
  });
}
const FONT_FILE = /url\(\s*["']?([^"')\s]+)/g;

/**
 * What a page in `language` needs of a style sheet (`css`) before its first paint, as HTML: the
 * preloads of its first fonts, then the sheet in a `<style>` without the font faces of the other
 * languages. Every rule but those is kept: the sheet is the first screens' (base.css) and the
 * fonts'. Nothing in it can close the element (`</style` is escaped: in CSS, `\/` is `/`).
 */
function inlineStylesheet(href: string, css: string, language: Language): string {
  const faces = PAGE_FACES[language];
  const preloaded = new Set<string>();
  const kept = css.replace(FONT_FACE, (face) => {
    const files = [...face.matchAll(FONT_FILE)].map((match) => match[1] ?? '');
    if (!files.some((file) => faces.test(file))) return '';
    for (const file of files) if (PRELOADED_FACES[language].test(file)) preloaded.add(file);
    return face;
  });
  const preloads = [...preloaded]
    .sort()
    .map(
      (file) =>
        `<link rel="preload" as="font" type="font/woff2" href="${escapeHtml(file)}" crossorigin="">`,
    );
  const style = `<style ${STYLESHEET_ATTRIBUTE}="${escapeHtml(href)}">${kept.replace(/<\/(style)/gi, '<\\/$1')}</style>`;
  return [...preloads, style].join('');
}

/**
 * The template's `<head>` for a page in `language`: each style sheet it links that the server has
 * (`stylesheets`) in a `<style>` (inlineStylesheet), with the preloads of the language's fonts
 * instead of the template's (which are the default language's).
 */
function drawnHead(
  template: string,
  stylesheets: Readonly<Record<string, string>>,
  language: Language,
): string {
  const known = [...template.matchAll(STYLESHEET_LINK)].some(
    ([, href = '']) => stylesheets[href] !== undefined,
  );
  if (!known) return template;
  return template.replace(FONT_PRELOAD, '').replace(STYLESHEET_LINK, (link, href: string) => {
    const css = stylesheets[href];
    return css === undefined ? link : inlineStylesheet(href, css, language);
  });
}

/**
 * Draws the page asked for into the built index.html, for a visitor without a session: the
 * language and the brand of the visit, the server's configuration. Null for a page the server
 * does not draw, or a template without its root.
 */
export const renderPage: RenderPage = async (request: PageRenderRequest) => {
  const url = new URL(request.url, 'http://portal.invalid');
  const titleKey = drawnPageTitle(url.pathname);
  if (!titleKey || !request.template.includes(ROOT)) return null;

  const { language, config } = request;
  const brand = resolveBrand({
    search: url.search,
    hostname: request.hostname,
    pathname: url.pathname,
    // The session's remembered brand is the browser's: a page drawn for another brand is redrawn.
    readSession: () => null,
    writeSession: () => {},
  });
  const state: PageState = { language, brand, config };
  const texts = await textsIn(language);
  const html = renderToString(
    <IslandApp
      state={{ language, brand, config: shellConfigOf(config) }}
      texts={texts}
      search={url.search}
      actions={DRAWING}
    />,
  );

  const title = documentTitle(texts.t(titleKey), BRAND_NAMES[brand]);
  // Replaced by functions: a `$` in the text inserted is not a replacement pattern.
  // The island fetches the whole client at the page's first interaction, not with the page.
  return drawnHead(
    preloadFirstTranslations(request.template, language),
    request.stylesheets,
    language,
  )
    .replace(WHOLE_CLIENT_LINK, '')
    .replace(/<html[^>]*>/, () => `<html lang="${language}" dir="${directionOf(language)}">`)
    .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(title)}</title>`)
    .replace(
      /<meta name="theme-color" content="[^"]*"/,
      () => `<meta name="theme-color" content="${BRAND_COLORS[brand].primary}"`,
    )
    .replace(
      ROOT,
      () =>
        `<div id="root">${html}</div>` +
        `<script type="application/json" id="${PAGE_STATE_ID}">${serialisePageState(state)}</script>`,
    );
};
