import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Brand, Language } from '@hygie/domain';
import {
  asBrand,
  asLanguage,
  BRANDING_HEADER_NAME,
  DEFAULT_BRAND,
  DEFAULT_LANGUAGE,
  LANGUAGE_QUERY_PARAM,
} from '@hygie/domain';

declare module 'fastify' {
  interface FastifyRequest {
    /** Language of messages: `?l=`, else Accept-Language, else fr. An unknown value falls back. */
    language: Language;
    /** Brand of messages: `x-branding`, else the default brand. */
    brand: Brand;
    /** The browser cookie's token (see cookies.ts `setBrowser`), if the browser sent one. */
    browserToken: string | null;
    /** The sealed identity a provider asserted, waiting to be linked (identity providers). */
    pendingLink: string | null;
  }
}

/** The language `?l=` asks for, if supported (Fastify types a query not yet validated as unknown). */
export function queryLanguage(request: FastifyRequest): Language | undefined {
  const query = request.query;
  return typeof query === 'object' && query !== null && LANGUAGE_QUERY_PARAM in query
    ? asLanguage(query[LANGUAGE_QUERY_PARAM])
    : undefined;
}

function languageOf(request: FastifyRequest): Language {
  const fromQuery = queryLanguage(request);
  if (fromQuery) return fromQuery;
  const accept = request.headers['accept-language'];
  if (typeof accept === 'string') {
    for (const part of accept.split(',')) {
      const tag = asLanguage(part.split(';')[0]?.trim().slice(0, 2).toLowerCase());
      if (tag) return tag;
    }
  }
  return DEFAULT_LANGUAGE;
}

/** Reads `?l=`, `x-branding`, the browser cookie and a pending provider link on every request. */
export const requestContext = fp(
  async (app: FastifyInstance, options: { browserCookie: string; pendingLinkCookie: string }) => {
    app.decorateRequest('language', DEFAULT_LANGUAGE);
    app.decorateRequest('brand', DEFAULT_BRAND);
    app.decorateRequest('browserToken', null);
    app.decorateRequest('pendingLink', null);
    app.addHook('preValidation', (request, _reply, done) => {
      request.language = languageOf(request);
      request.brand = asBrand(request.headers[BRANDING_HEADER_NAME]) ?? DEFAULT_BRAND;
      request.browserToken = request.cookies[options.browserCookie] ?? null;
      request.pendingLink = request.cookies[options.pendingLinkCookie] ?? null;
      done();
    });
  },
);
