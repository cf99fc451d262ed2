import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { XSRF_HEADER_NAME } from '@hygie/domain';
import { hmac, randomToken, safeEqual } from '../lib/tokens.js';
import { sendError } from './error-handler.js';
import type { CookiePolicy } from './cookies.js';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Anti-forgery token bound to the session: with a session cookie the token must be
 * HMAC(secret, session token); before sign-in it is a random value signed by the server.
 * The cookie is readable by the SPA and must be echoed in `x-xsrf-token` on every unsafe method,
 * login included (security.md "Requests").
 */
export function xsrfTokenFor(secret: string, sessionToken: string | undefined): string {
  if (sessionToken) return hmac(secret, `session:${sessionToken}`);
  const nonce = randomToken(16);
  return `${nonce}.${hmac(secret, `anon:${nonce}`)}`;
}

export function isValidXsrfToken(
  secret: string,
  sessionToken: string | undefined,
  token: string,
): boolean {
  if (sessionToken) return safeEqual(token, hmac(secret, `session:${sessionToken}`));
  const [nonce, signature, extra] = token.split('.');
  if (!nonce || !signature || extra !== undefined) return false;
  return safeEqual(signature, hmac(secret, `anon:${nonce}`));
}

/** Whether a token has the form the browser's state needs (session-bound, or anonymous). */
function fitsState(token: string, sessionToken: string | undefined): boolean {
  return token.includes('.') !== (sessionToken !== undefined);
}

/** Issues a fresh token for the given session (or none) in the cookie. */
export function issueXsrf(
  reply: FastifyReply,
  cookies: CookiePolicy,
  secret: string,
  sessionToken: string | undefined,
): void {
  cookies.setXsrf(reply, xsrfTokenFor(secret, sessionToken));
}

export const csrfProtection = fp(
  async (
    app: FastifyInstance,
    options: { secret: string; cookies: CookiePolicy; exemptPrefix: string },
  ) => {
    const { secret, cookies, exemptPrefix } = options;
    // Callback-style (no promise per request): it runs on every request, and never waits.
    app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done) => {
      const sessionToken = request.cookies[cookies.sessionCookie];
      const cookieToken = request.cookies[cookies.xsrfCookie];
      // Every unsafe request needs the token, whatever its path looks like: the exemption is
      // decided on the route the router matched (decoded, as it dispatches), never on the raw
      // URL, which `/%61pi/…` would make say something else. Unmatched requests are checked too.
      const route = request.routeOptions.url;
      const exempt = route !== undefined && route.startsWith(exemptPrefix);
      if (!SAFE.has(request.method) && !exempt) {
        const header = request.headers[XSRF_HEADER_NAME];
        const ok =
          typeof header === 'string' &&
          cookieToken !== undefined &&
          safeEqual(header, cookieToken) &&
          isValidXsrfToken(secret, sessionToken, header);
        if (!ok) {
          // A fresh token with the refusal: a browser holding a stale one can retry (GET no longer
          // checks the one it holds, below).
          issueXsrf(reply, cookies, secret, sessionToken);
          // Answered here: the request goes no further (done is not called).
          sendError(request, reply, 'csrf_token_invalid');
          return;
        }
        done();
        return;
      }
      // Safe methods hand out a token when the browser has none of the kind its state needs: bound
      // to the session with one (no dot), signed and random before sign-in (nonce.signature). Only
      // its form is looked at, not its HMAC (the session check's hot path); the unsafe requests
      // that rely on it verify it whole, and their refusal hands out a fresh one.
      if (!cookieToken || !fitsState(cookieToken, sessionToken)) {
        issueXsrf(reply, cookies, secret, sessionToken);
      }
      done();
    });
  },
);
