import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { brandOfAddress, type PublicConfig, type RenderPage } from '@hygie/domain';
import { OIDC_PREFIX } from '../modules/oidc/provider.js';
import { sendError } from './error-handler.js';

export interface WebClientOptions {
  /** The built web client (apps/web/dist). */
  distDir: string;
  /**
   * Draws the pages the server draws (apps/web/src/app/server-render.tsx); by default the one
   * built beside the client (apps/web/dist-ssr), if any. `null`: the browser draws every page.
   */
  renderPage?: RenderPage | null;
  publicConfig: PublicConfig;
  /** A request with this cookie has a session: its pages are drawn by the browser. */
  sessionCookie: string;
}

/** The renderer `vite build --ssr` wrote beside the client's build, if there is one. */
export async function builtPageRenderer(distDir: string): Promise<RenderPage | null> {
  const file = path.join(path.dirname(distDir), 'dist-ssr', 'server-render.js');
  if (!fs.existsSync(file)) return null;
  const module: unknown = await import(pathToFileURL(file).href);
  const renderPage =
    typeof module === 'object' && module !== null && 'renderPage' in module
      ? module.renderPage
      : undefined;
  if (!isRenderPage(renderPage)) throw new Error(`${file} exports no renderPage`);
  return async (request) => {
    const page: unknown = await renderPage(request);
    if (typeof page !== 'string' && page !== null) throw new Error('renderPage gave no page');
    return page;
  };
}

/** The renderer's export, checked as far as it can be before a call (its answer is checked). */
function isRenderPage(value: unknown): value is RenderPage {
  return typeof value === 'function';
}

/**
 * The built style sheets (`assets/*.css`), by address: a drawn page carries the ones it links in
 * its HTML (server-render.tsx). Read once: a build's hashed files do not change.
 */
function builtStylesheets(distDir: string): Record<string, string> {
  const assetsDir = path.join(distDir, 'assets');
  if (!fs.existsSync(assetsDir)) return {};
  const sheets: Record<string, string> = {};
  for (const name of fs.readdirSync(assetsDir)) {
    if (name.endsWith('.css')) {
      sheets[`/assets/${name}`] = fs.readFileSync(path.join(assetsDir, name), 'utf8');
    }
  }
  return sheets;
}

/**
 * Drawn pages kept, by language, brand and address; only addresses without a query are kept. The
 * key has the brand the host names, not the host: the `Host` header is the client's to choose,
 * and a page depends on it through its brand alone (server-render.tsx).
 */
const KEPT_PAGES = 64;

/** Past this, a page is left to the browser: a renderer that hangs must not hang the request. */
export const DRAW_TIME_LIMIT_MS = 2_000;

/** `renderPage`, refused when it has not answered within `ms` (it is not stopped: nothing is kept). */
export function withTimeLimit(renderPage: RenderPage, ms: number): RenderPage {
  return (request) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the page was not drawn within ${ms} ms`)),
        ms,
      );
      renderPage(request).then(
        (page) => {
          clearTimeout(timer);
          resolve(page);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    });
}

type Encoding = 'br' | 'gzip' | 'identity';

/** The encoding of a drawn page: brotli, else gzip, if accepted (not with q=0), else none. */
export function pageEncoding(acceptEncoding: string | undefined): Encoding {
  const accepted = new Set<string>();
  for (const part of (acceptEncoding ?? '').split(',')) {
    const [name = '', ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const refused = params.some((param) => /^q=0(?:\.0*)?$/.test(param));
    if (!refused) accepted.add(name);
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return 'identity';
}

/** A drawn page in each encoding, compressed when first asked for. */
class DrawnPage {
  private readonly encoded = new Map<Encoding, Buffer>();
  constructor(readonly html: string) {}
  in(encoding: Encoding): Buffer {
    let body = this.encoded.get(encoding);
    if (!body) {
      const raw = Buffer.from(this.html);
      body =
        encoding === 'br'
          ? // A middle quality: a page is compressed per request when its address has a query.
            zlib.brotliCompressSync(raw, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } })
          : encoding === 'gzip'
            ? zlib.gzipSync(raw)
            : raw;
      this.encoded.set(encoding, body);
    }
    return body;
  }
}

/**
 * Serves the built SPA; unknown non-API GETs get index.html (client-side routes). The build writes
 * a brotli (`.br`) and a gzip (`.gz`) copy beside each text file: the client gets the one its
 * Accept-Encoding prefers (br, then gzip, else the file as is), with `Vary: Accept-Encoding`.
 * Hashed assets (`/assets/`) never change under their name: cached for a year, immutable; every
 * other file (index.html, favicon, brand logos) is revalidated.
 *
 * A visitor without a session asking for a page the server draws (the login page) gets it drawn
 * in the HTML, in the language of the request (docs/web.md, "Pages drawn by the server"); if the
 * renderer fails, the page is index.html as for any other path, and the failure is logged.
 */
export async function registerWebClient(
  app: FastifyInstance,
  options: WebClientOptions,
): Promise<void> {
  const { distDir } = options;
  const hasSpa = fs.existsSync(path.join(distDir, 'index.html'));
  const template = hasSpa ? fs.readFileSync(path.join(distDir, 'index.html'), 'utf8') : '';
  const stylesheets = hasSpa ? builtStylesheets(distDir) : {};
  const renderer =
    options.renderPage === undefined
      ? hasSpa
        ? await builtPageRenderer(distDir)
        : null
      : options.renderPage;
  const renderPage = renderer && withTimeLimit(renderer, DRAW_TIME_LIMIT_MS);
  if (hasSpa) {
    const assetsDir = `${path.join(distDir, 'assets')}${path.sep}`;
    await app.register(fastifyStatic, {
      root: distDir,
      wildcard: false,
      index: false,
      preCompressed: true,
      // The header is set below, per file.
      cacheControl: false,
      setHeaders(res, filePath) {
        const hashed = filePath.startsWith(assetsDir);
        res.setHeader('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
        // The file was chosen by Accept-Encoding: a shared cache must not give it to another client.
        res.setHeader('vary', 'accept-encoding');
      },
    });
  }

  const kept = new Map<string, DrawnPage | null>();
  // The draws under way, by the same key: the first requests for a page wait for one draw.
  const drawing = new Map<string, Promise<DrawnPage | null>>();

  async function draw(render: RenderPage, request: FastifyRequest): Promise<DrawnPage | null> {
    const html = await render({
      url: request.url,
      hostname: request.hostname,
      language: request.language,
      config: options.publicConfig,
      template,
      stylesheets,
    });
    return html === null ? null : new DrawnPage(html);
  }

  function drawnPage(request: FastifyRequest): Promise<DrawnPage | null> {
    if (!renderPage || request.cookies[options.sessionCookie]) return Promise.resolve(null);
    if (request.url.includes('?')) return draw(renderPage, request);
    const brand = brandOfAddress(request.hostname, request.url);
    const key = `${request.language} ${brand} ${request.url}`;
    const known = kept.get(key);
    if (known !== undefined) return Promise.resolve(known);
    let pending = drawing.get(key);
    if (!pending) {
      pending = draw(renderPage, request)
        .then((page) => {
          if (kept.size >= KEPT_PAGES) kept.delete(kept.keys().next().value ?? '');
          kept.set(key, page);
          return page;
        })
        .finally(() => drawing.delete(key));
      drawing.set(key, pending);
    }
    return pending;
  }

  // With a renderer, whether a page path is drawn depends on the language and the cookies: a
  // shared cache must tell those requests apart, whichever answer they got.
  const vary = renderPage ? 'accept-encoding, accept-language, cookie' : 'accept-encoding';

  async function sendPage(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    void reply.header('cache-control', 'no-cache');
    const page = await drawnPage(request).catch((error: unknown) => {
      request.log.error({ err: error }, 'the page could not be drawn: the browser draws it');
      return null;
    });
    if (page === null) return reply.header('vary', vary).sendFile('index.html');
    const encoding = pageEncoding(request.headers['accept-encoding']);
    if (encoding !== 'identity') void reply.header('content-encoding', encoding);
    // Drawn for this language, for a visitor without a session, in this encoding.
    return reply.header('vary', vary).type('text/html; charset=utf-8').send(page.in(encoding));
  }

  // Discovery lives under the issuer (/oidc); clients that look at the host's root are sent there.
  for (const document of ['openid-configuration', 'oauth-authorization-server']) {
    app.get(`/.well-known/${document}`, { schema: { hide: true } }, (_request, reply) =>
      reply.redirect(`${OIDC_PREFIX}/.well-known/openid-configuration`, 308),
    );
  }
  app.setNotFoundHandler((request, reply) => {
    const isPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !request.url.startsWith('/api/') &&
      !request.url.startsWith('/oidc/') &&
      !request.url.startsWith('/.well-known/') &&
      // A scraper or probe looking for metrics gets a JSON 404, never the web client's page.
      !/^\/metrics(\/|\?|$)/.test(request.url);
    if (isPage && hasSpa) return sendPage(request, reply);
    return sendError(request, reply, 'not_found');
  });
}
