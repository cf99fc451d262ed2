import type { SwaggerTransform } from '@fastify/swagger';
import { z } from 'zod';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { ErrorCode } from '@hygie/domain';
import {
  accountStateOf,
  ERROR_CODES,
  errorEnvelopeSchema,
  statusOf,
  XSRF_HEADER_NAME,
} from '@hygie/domain';
import type { CookiePolicy } from './cookies.js';

/**
 * Who may call a route, declared on the route as `config: { auth }` and published as its OpenAPI
 * `security` (docs/api.md "OpenAPI"):
 * - `public`: no session needed (the anti-forgery pair still guards unsafe methods);
 * - `optional`: anonymous, or a session when the browser has one (it then acts for that user);
 * - `session`: a session, complete or at the sign-in stage the route finishes;
 * - `admin`: an admin's complete session — every route under `/api/admin/` is, declared or not;
 * - `bearer`: the `METRICS_TOKEN` bearer token (`/metrics`).
 */
export const ROUTE_AUTH = ['public', 'optional', 'session', 'admin', 'bearer'] as const;
export type RouteAuth = (typeof ROUTE_AUTH)[number];

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route: its OpenAPI `security` (plugins/openapi.ts). */
    auth?: RouteAuth;
    /**
     * A health probe or a metrics scrape, called every few seconds by machines: its answers that
     * pass are logged at `debug`, the others at `info` like any request (lib/access-log.ts).
     */
    probe?: true;
  }
}

/** Routes under this prefix are refused to non-admins by the composition root's hook. */
export const ADMIN_PREFIX = '/api/admin/';

export const SECURITY_SCHEMES = {
  session: 'sessionCookie',
  xsrfCookie: 'xsrfCookie',
  xsrfHeader: 'xsrfHeader',
  metrics: 'metricsToken',
} as const;

/** The `components.securitySchemes` of the document: the cookie names follow the configuration. */
export function securitySchemes(cookies: Pick<CookiePolicy, 'sessionCookie' | 'xsrfCookie'>) {
  return {
    [SECURITY_SCHEMES.session]: {
      type: 'apiKey' as const,
      in: 'cookie',
      name: cookies.sessionCookie,
      description: 'The session cookie set by a sign-in (HttpOnly, SameSite=Lax).',
    },
    [SECURITY_SCHEMES.xsrfCookie]: {
      type: 'apiKey' as const,
      in: 'cookie',
      name: cookies.xsrfCookie,
      description:
        'The anti-forgery token, handed out by any GET; it must equal the anti-forgery header.',
    },
    [SECURITY_SCHEMES.xsrfHeader]: {
      type: 'apiKey' as const,
      in: 'header',
      name: XSRF_HEADER_NAME,
      description:
        'The anti-forgery cookie echoed on every POST, PUT, PATCH and DELETE (else 403 csrf_token_invalid).',
    },
    [SECURITY_SCHEMES.metrics]: {
      type: 'http' as const,
      scheme: 'bearer',
      description: 'The METRICS_TOKEN of the configuration (Prometheus scraper).',
    },
  };
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The auth of a route: admin under `/api/admin/` (enforced there by URL), else its declaration. */
export function authOf(url: string, declared: RouteAuth | undefined): RouteAuth | undefined {
  return url.startsWith(ADMIN_PREFIX) ? 'admin' : declared;
}

type SecurityRequirement = Record<string, string[]>;

/** The OpenAPI `security` of a route: alternatives, each a set of schemes presented together. */
export function securityOf(auth: RouteAuth, method: string): SecurityRequirement[] {
  const forgery: SecurityRequirement = SAFE_METHODS.has(method)
    ? {}
    : { [SECURITY_SCHEMES.xsrfCookie]: [], [SECURITY_SCHEMES.xsrfHeader]: [] };
  const session = { [SECURITY_SCHEMES.session]: [], ...forgery };
  switch (auth) {
    case 'bearer':
      return [{ [SECURITY_SCHEMES.metrics]: [] }];
    case 'session':
    case 'admin':
      return [session];
    case 'optional':
      return [forgery, session];
    case 'public':
      return Object.keys(forgery).length === 0 ? [] : [forgery];
  }
}

function pascal(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/**
 * A stable camelCase id from the method and the path: `POST /api/admin/users/:id/lock` →
 * `postAdminUsersByIdLock`.
 */
export function operationIdOf(method: string, url: string): string {
  const words = url
    .replace(/^\/api(?=\/|$)/, '')
    .split('/')
    .filter(Boolean)
    .flatMap((segment) => {
      const param = /^(?::|\{)(\w+)\}?$/.exec(segment)?.[1];
      if (param) return ['by', param];
      return segment.split(/[^A-Za-z0-9]+/).filter(Boolean);
    });
  return method.toLowerCase() + words.map(pascal).join('');
}

/** The sign-in stage codes (catalogue codes implying an account state): a session's refusals. */
const STAGE_CODES = ERROR_CODES.filter((code) => accountStateOf(code) !== undefined);

/**
 * The error codes any route of its kind can answer, whatever it does, by status: the platform's
 * checks (input, anti-forgery, body, session, admin role, database) and the 500.
 */
export function platformErrors(
  auth: RouteAuth | undefined,
  method: string,
): Map<number, ErrorCode[]> {
  const codes: ErrorCode[] = ['validation_error', 'unknown_error'];
  if (!SAFE_METHODS.has(method)) {
    codes.push('invalid_json', 'csrf_token_invalid', 'payload_too_large', 'unsupported_media_type');
  }
  if (auth === 'session' || auth === 'admin' || auth === 'optional') {
    codes.push(...STAGE_CODES, 'service_unavailable');
  }
  if (auth === 'admin') codes.push('forbidden');
  if (auth === 'bearer') codes.push('not_logged_in');
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes)
    byStatus.set(statusOf(code), [...(byStatus.get(statusOf(code)) ?? []), code]);
  return byStatus;
}

const list = (codes: readonly string[]) => codes.map((code) => `\`${code}\``).join(', ');

/**
 * An error response's description: the codes this route answers with that status whatever it
 * does, then the catalogue's other codes of that status (which the route's own rules may send).
 */
export function errorDescription(status: number, platform: readonly ErrorCode[] = []): string {
  const others = ERROR_CODES.filter(
    (code) => statusOf(code) === status && !platform.includes(code),
  );
  const parts = ['An ErrorEnvelope.'];
  if (platform.length > 0) parts.push(`On every call of this kind: ${list(platform)}.`);
  if (others.length > 0) {
    parts.push(
      `${platform.length > 0 ? 'Other' : 'Its'} ${status} codes of the catalogue: ${list(others)}.`,
    );
  }
  return parts.join(' ');
}

const SUCCESS: Record<number, string> = {
  200: 'Success.',
  201: 'Created.',
  202: 'Accepted.',
  204: 'Done: no content.',
  303: 'Redirect: the `location` header says where.',
};

function successDescription(status: number): string {
  return SUCCESS[status] ?? (status < 300 ? 'Success.' : 'Redirect (`location` header).');
}

/** A plain object (route schemas carry symbol keys too, which `z.record` refuses). */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function recordOf(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {};
}

const routeSchema = z.looseObject({
  hide: z.boolean().optional(),
  operationId: z.string().optional(),
  response: z.unknown().optional(),
});
const described = z.looseObject({ description: z.string().optional() });
const methodSchema = z.union([z.string(), z.tuple([z.string()]).transform(([m]) => m)]);

/** A response of the document with a description: never swagger's "Default Response". */
function describeResponse(
  status: number,
  json: unknown,
  envelope: boolean,
  platform: readonly ErrorCode[],
): unknown {
  const fallback = envelope
    ? errorDescription(status, platform)
    : status >= 400
      ? `Refused (${status}).`
      : successDescription(status);
  const parsed = described.safeParse(json);
  const own = parsed.success ? parsed.data.description : undefined;
  if (isRecord(json) && isRecord(json.content)) return { ...json, description: own ?? fallback };
  // No body: 204 and redirects (swagger leaves the content out of a `type: 'null'` response).
  if (status === 204 || (status >= 300 && status < 400)) {
    return { type: 'null', description: own ?? fallback };
  }
  return {
    description: own ?? fallback,
    content: { 'application/json': { schema: json } },
  };
}

/**
 * The document's one transform (on top of fastify-type-provider-zod's): every visible route gets
 * an `operationId` (unless it sets one), its `security` from its auth, the error statuses every
 * route of its kind can answer (the ErrorEnvelope), and a description on each response.
 */
export const openapiTransform: SwaggerTransform = (input) => {
  const { schema, url, route } = input;
  const own = routeSchema.safeParse(schema);
  if (!own.success || own.data.hide === true) return jsonSchemaTransform(input);
  const method = methodSchema.safeParse(route.method);
  const auth = authOf(url, route.config?.auth);
  const declared = recordOf(own.data.response);
  const errors = method.success
    ? platformErrors(auth, method.data)
    : new Map<number, ErrorCode[]>();
  const response = {
    ...Object.fromEntries([...errors.keys()].map((status) => [status, errorEnvelopeSchema])),
    ...declared,
  };
  const transformed = jsonSchemaTransform({ ...input, schema: { ...schema, response } });
  const responses = recordOf(recordOf(transformed.schema).response);
  return {
    url: transformed.url,
    schema: {
      ...transformed.schema,
      ...(method.success && own.data.operationId === undefined
        ? { operationId: operationIdOf(method.data, url) }
        : {}),
      ...(method.success && auth ? { security: securityOf(auth, method.data) } : {}),
      response: Object.fromEntries(
        Object.entries(responses).map(([status, json]) => [
          status,
          describeResponse(
            Number(status),
            json,
            response[status] === errorEnvelopeSchema,
            errors.get(Number(status)) ?? [],
          ),
        ]),
      ),
    },
  };
};
