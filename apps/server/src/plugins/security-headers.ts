import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * The strict CSP of the SPA: no inline or foreign script, no framing. `extraFormAction` lets a
 * page's form lead elsewhere: browsers also apply form-action to the redirects that follow a
 * submission (the OIDC consent form ends on the platform's redirect URI).
 */
export function contentSecurityPolicy(
  extraConnect: string[] = [],
  extraFormAction: string[] = [],
): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    // MUI (emotion) injects <style> elements at run time.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src ${["'self'", ...extraConnect].join(' ')}`,
    "worker-src 'self' blob:",
    "frame-ancestors 'none'",
    `form-action ${["'self'", ...extraFormAction].join(' ')}`,
    "base-uri 'none'",
    "object-src 'none'",
  ].join('; ');
}

/** Security headers on every response (security.md "Requests"). */
export const securityHeaders = fp(
  async (app: FastifyInstance, options: { hsts: boolean; sentryDsn: string | null }) => {
    const connect = options.sentryDsn ? [new URL(options.sentryDsn).origin] : [];
    const csp = contentSecurityPolicy(connect);
    app.addHook('onSend', (request, reply, payload, done) => {
      // The API docs page sets its own CSP (with the hashes of its inline bootstrap, app.ts).
      if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', csp);
      // API answers carry personal data: no browser or proxy cache keeps them, unless a route
      // chose its own policy.
      const path = request.routeOptions.url ?? request.url;
      if (path.startsWith('/api/') && !reply.hasHeader('cache-control')) {
        reply.header('cache-control', 'no-store');
      }
      reply.header('x-content-type-options', 'nosniff');
      reply.header('referrer-policy', 'same-origin');
      reply.header('x-frame-options', 'DENY');
      reply.header('cross-origin-opener-policy', 'same-origin');
      reply.header('permissions-policy', 'camera=(), microphone=(), geolocation=()');
      if (options.hsts)
        reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
      done(null, payload);
    });
  },
);
