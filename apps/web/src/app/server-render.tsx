import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import i18next, { type i18n as I18n } from 'i18next';
import {
  createStaticHandler,
  createStaticRouter,
  matchRoutes,
  StaticRouterProvider,
} from 'react-router';
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
import { App } from './app';
import { STYLESHEET_ATTRIBUTE } from './drawn-styles';
import { PAGE_FACES, PRELOADED_FACES } from './fonts';
import { FIRST_NAMESPACES, initI18n } from './i18n';
import { PAGE_STATE_ID, seedPageData, serialisePageState, type PageState } from './page-state';
import { isRouteHandle } from './root-layout';
import { routes } from './routes';
import { createAppServices } from './services';

/**
 * The pages the server draws, by route name, with their title's key: the login page, which most
 * visits open first. Its HTML is shown before any script has run (docs/web.md); the browser then
 * takes it over (boot.tsx). Such a page uses only the first screens' translations and no MUI.
 */
const DRAWN_PAGES: Readonly<Record<string, string>> = { login: 'login:title' };

const handler = createStaticHandler(routes);

/** One ready translation instance per language, with the first screens' namespaces. */
const translations = new Map<Language, Promise<I18n>>();
function translationsIn(language: Language): Promise<I18n> {
  let ready = translations.get(language);
  if (!ready) {
    ready = initI18n(i18next.createInstance(), language, FIRST_NAMESPACES);
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
const FONT_FACE = /@font-face\s*\{[^}]*\}/g;
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
  const [i18n, context] = await Promise.all([
    translationsIn(language),
    handler.query(new Request(url)),
  ]);
  if (context instanceof Response) return null;

  const services = createAppServices({ brand, getLanguage: () => language });
  seedPageData(services, state);
  let html: string;
  try {
    html = renderToString(
      <StrictMode>
        <App services={services} i18n={i18n}>
          <StaticRouterProvider
            router={createStaticRouter(handler.dataRoutes, context)}
            context={context}
            hydrate={false}
          />
        </App>
      </StrictMode>,
    );
  } finally {
    // The cache's timers would keep each request's data alive for minutes.
    services.queryClient.clear();
  }

  const title = documentTitle(i18n.t(titleKey, { lng: language }), BRAND_NAMES[brand]);
  // Replaced by functions: a `$` in the text inserted is not a replacement pattern.
  return drawnHead(request.template, request.stylesheets, language)
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
