import fs from 'node:fs';
import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { SESSION_DEFAULTS, XSRF_COOKIE_NAME } from '@hygie/domain';
import type { DataKey } from './security/field-crypto.js';
import { KEY_BYTES, KEY_ID } from './security/field-crypto.js';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const seconds = z.coerce.number().int().positive();
/** An address browsers or this server reach: http or https, nothing else (ftp, file, javascript). */
const httpUrl = z.url({
  protocol: /^https?$/,
  error: 'expected an http:// or https:// URL',
});

/** Space-separated OAuth scopes, `openid` among them. */
const scopeList = z
  .string()
  .transform((v) => v.split(/\s+/).filter(Boolean))
  .refine((scopes) => scopes.includes('openid'), { error: 'expected scopes including openid' });
/** Space-separated `acr` values, the lowest first (e.g. eidas1, or eidas2 eidas3). */
const acrList = z
  .string()
  .transform((v) => v.split(/\s+/).filter(Boolean))
  .refine((values) => values.length > 0, { error: 'expected at least one acr value' });

/**
 * The upstream identity providers the portal knows (docs/identity-providers.md): each is enabled
 * by its `<PREFIX>_ISSUER`, `_CLIENT_ID` and `_CLIENT_SECRET`, and its claims are read by its
 * mapper. Another OpenID provider is one more row here and its five variables.
 */
const UPSTREAM_PROVIDERS = [
  { id: 'psc', prefix: 'PSC', claims: 'psc' },
  { id: 'franceconnect', prefix: 'FRANCECONNECT', claims: 'franceconnect' },
] as const;

/** How a provider's claims become an identity (modules/identity-providers/claims.ts). */
export type ClaimsMapperKind = (typeof UPSTREAM_PROVIDERS)[number]['claims'];

/** One upstream OpenID provider the portal signs people in with. */
export interface IdentityProviderConfig {
  /** The path segment (`/api/idp/<id>/start`) and the links' provider column. */
  id: string;
  claims: ClaimsMapperKind;
  issuer: URL;
  clientId: string;
  clientSecret: string;
  scopes: string[];
  /** Sent as `acr_values`; the first (lowest) is the level a sign-in must reach to count. */
  acrValues: string[];
}

// proxy-addr's named ranges, which Fastify's trustProxy accepts alongside addresses and CIDRs.
/** The day the accessibility statement shipped with the portal was drawn up. */
const ACCESSIBILITY_STATEMENT_DATE = '2026-11-26';

const PROXY_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyAddress(item: string): boolean {
  if (PROXY_RANGES.has(item)) return true;
  const [address = '', prefix, extra] = item.split('/');
  const version = isIP(address);
  if (version === 0 || extra !== undefined) return false;
  return (
    prefix === undefined ||
    (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128))
  );
}

/**
 * Whose `X-Forwarded-For` is believed: nobody (default), the N nearest proxies (a hop count), or
 * listed proxy addresses. `true` (believe anyone) is refused: any client could then choose the
 * address every per-IP throttle and audit line reads.
 */
const trustProxy = z
  .string()
  .optional()
  .transform((value, ctx): false | number | string => {
    if (value === undefined || value === 'false' || value === '0') return false;
    if (/^\d+$/.test(value)) return Number(value);
    const items = value.split(',').map((item) => item.trim());
    if (value !== 'true' && items.every(isProxyAddress)) return items.join(',');
    ctx.addIssue({
      code: 'custom',
      message:
        value === 'true'
          ? 'true would believe any client’s X-Forwarded-For: give the number of proxies in front of the portal (e.g. 1) or their addresses/CIDRs'
          : 'expected a number of proxies (e.g. 1) or comma-separated proxy addresses/CIDRs',
    });
    return z.NEVER;
  });

/**
 * Every setting the server reads from the environment, with its default.
 * The README's configuration table documents the same list.
 */
const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce
    .number({ error: 'expected a port number, 0 to 65535' })
    .int({ error: 'expected a port number, 0 to 65535' })
    .min(0, { error: 'expected a port number, 0 to 65535' })
    .max(65535, { error: 'expected a port number, 0 to 65535' })
    .default(3000),
  PUBLIC_URL: httpUrl.optional(),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  DATABASE_POOL_MAX: z.coerce.number().int().positive().default(10),
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: trustProxy,
  SESSION_SECRET: z.string().min(32).optional(),
  SESSION_IDLE_TIMEOUT: seconds.default(SESSION_DEFAULTS.idleTimeoutSeconds),
  SESSION_ABSOLUTE_TIMEOUT: seconds.default(SESSION_DEFAULTS.absoluteTimeoutSeconds),
  XSRF_COOKIE_NAME: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/)
    .default(XSRF_COOKIE_NAME),
  ARGON2_MEMORY_KIB: z.coerce.number().int().min(8192).default(19456),
  ARGON2_TIME_COST: z.coerce.number().int().min(1).default(2),
  ARGON2_PARALLELISM: z.coerce.number().int().min(1).default(1),
  WORKERS: z.coerce.number().int().min(1).max(64).default(1),
  HASH_CONCURRENCY: z.coerce.number().int().min(1).max(256).optional(),
  HASH_QUEUE_LIMIT: z.coerce.number().int().min(1).optional(),
  ADMIN_EMAIL: z.email().optional(),
  ADMIN_PASSWORD: z.string().optional(),
  CONTACT_EMAIL: z.email().default('support@hygie.local'),
  TIME_ZONE: z
    .string()
    .default('Europe/Paris')
    .refine(isTimeZone, { error: 'expected an IANA time zone, e.g. Europe/Paris' }),
  SUPPORT_NAME: z.string().default('Hygie support'),
  SUPPORT_PHONE: z.string().optional(),
  SUPPORT_WEBSITE: httpUrl.optional(),
  SUPPORT_HEAD_OFFICE: z.string().optional(),
  SUPPORT_LINKS: z
    .string()
    .transform((v, ctx) => {
      try {
        const links = z.array(z.object({ label: z.string(), url: z.url() })).parse(JSON.parse(v));
        return links;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be a JSON array of {"label","url"}' });
        return z.NEVER;
      }
    })
    .optional(),
  LEGAL_PUBLISHER_NAME: z.string().optional(),
  LEGAL_PUBLISHER_ADDRESS: z.string().optional(),
  LEGAL_PUBLISHER_REGISTRATION: z.string().optional(),
  LEGAL_PUBLICATION_DIRECTOR: z.string().optional(),
  LEGAL_HOST_NAME: z.string().optional(),
  LEGAL_HOST_ADDRESS: z.string().optional(),
  LEGAL_HOST_HDS_CERTIFICATE: z.string().optional(),
  LEGAL_DPO_CONTACT: z.string().optional(),
  /** The day the accessibility statement was drawn up (its last assessment). */
  LEGAL_ACCESSIBILITY_DATE: z.iso
    .date({ error: 'must be a real calendar date, YYYY-MM-DD' })
    .default(ACCESSIBILITY_STATEMENT_DATE),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  SMTP_FROM: z.string().default('Hygie <no-reply@hygie.local>'),
  SMS_GATEWAY_URL: httpUrl.optional(),
  SMS_GATEWAY_TOKEN: z.string().optional(),
  SMS_SENDER: z.string().default('Hygie'),
  SMTP_TIMEOUT_MS: z.coerce.number().int().min(100).default(15_000),
  SMS_GATEWAY_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  OUTBOX_POLL_MS: z.coerce.number().int().min(50).default(1000),
  OUTBOX_SEND_TIMEOUT_MS: z.coerce.number().int().min(100).default(60_000),
  OUTBOX_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  OIDC_REFRESH_REUSE_GRACE_SECONDS: z.coerce.number().int().min(0).max(60).default(10),
  PSC_ISSUER: httpUrl.optional(),
  PSC_CLIENT_ID: z.string().optional(),
  PSC_CLIENT_SECRET: z.string().optional(),
  PSC_SCOPES: scopeList.prefault('openid scope_all'),
  PSC_ACR_VALUES: acrList.prefault('eidas1'),
  FRANCECONNECT_ISSUER: httpUrl.optional(),
  FRANCECONNECT_CLIENT_ID: z.string().optional(),
  FRANCECONNECT_CLIENT_SECRET: z.string().optional(),
  FRANCECONNECT_SCOPES: scopeList.prefault(
    'openid given_name family_name birthdate gender birthplace birthcountry preferred_username',
  ),
  FRANCECONNECT_ACR_VALUES: acrList.prefault('eidas1'),
  IDP_TIMEOUT_MS: z.coerce.number().int().min(100).default(5000),
  SENTRY_DSN: z.url().optional(),
  SENTRY_ENVIRONMENT: z.string().default('production'),
  WEB_DIST_DIR: z.string().optional(),
  BODY_LIMIT: z.coerce
    .number()
    .int()
    .positive()
    .default(64 * 1024),
  HSTS: bool.optional(),
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).default(3000),
  /** The bearer token a Prometheus scraper presents at /metrics; unset, /metrics is off. */
  METRICS_TOKEN: z.string().min(24, { error: 'expected at least 24 characters' }).optional(),
  /** Data keys sealing health identifiers: `id:base64` (32 bytes), comma-separated, active first. */
  DATA_ENCRYPTION_KEY: z.string().optional(),
  DATA_ENCRYPTION_KEY_FILE: z.string().optional(),
  /**
   * The blind-index key (HMAC of the INS for exact-match lookups): base64, 32 bytes; during an
   * index-key rebuild, the new one then the old one, comma-separated.
   */
  DATA_INDEX_KEY: z.string().optional(),
  DATA_INDEX_KEY_FILE: z.string().optional(),
  HYGIE_TEST_CLOCK: bool.optional(),
});

/** Whether Intl knows the zone (an unknown one would throw when a date is written). */
function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

export type Env = z.infer<typeof envSchema>;

export interface Config {
  env: Env['NODE_ENV'];
  production: boolean;
  host: string;
  port: number;
  publicUrl: URL;
  dataDir: string;
  database:
    | { kind: 'sqlite'; file: string }
    | { kind: 'postgres'; url: string; poolMax: number; statementTimeoutMs?: number };
  logLevel: Env['LOG_LEVEL'];
  /** False, a hop count, or the proxies' addresses (comma-separated), as Fastify takes it. */
  trustProxy: false | number | string;
  sessionSecret: string | undefined;
  session: { idleSeconds: number; absoluteSeconds: number };
  xsrfCookieName: string;
  argon2: { memoryCost: number; timeCost: number; parallelism: number };
  /** Password hashing: worker threads (the cores by default) and how many jobs may wait for one. */
  hashing: { concurrency: number; queueLimit: number };
  admin: { email: string; password: string } | undefined;
  contactEmail: string;
  /** The IANA time zone messages write dates in. */
  timeZone: string;
  support: {
    name: string;
    phone: string | null;
    website: string | null;
    headOffice: string | null;
    links: { label: string; url: string }[];
  };
  /** The operator's legal information (legal notice, personal-data policy); null: unset. */
  legal: {
    publisherName: string | null;
    publisherAddress: string | null;
    publisherRegistration: string | null;
    publicationDirector: string | null;
    hostName: string | null;
    hostAddress: string | null;
    hostHdsCertificate: string | null;
    dpoContact: string | null;
    /** The accessibility statement's date, YYYY-MM-DD. */
    accessibilityDate: string;
  };
  smtp: { url: string; from: string; timeoutMs: number } | undefined;
  sms: { url: string; token: string | undefined; sender: string; timeoutMs: number } | undefined;
  /** The dispatcher: idle poll, the deadline of one send, and the sends in flight per channel. */
  outbox: { pollMs: number; sendTimeoutMs: number; concurrency: number };
  sentry: { dsn: string | null; environment: string };
  /** How long a rotated refresh token may still be presented (parallel refreshes of one app). */
  oidc: { refreshReuseGraceSeconds: number };
  /** The upstream identity providers that are configured (none: no provider sign-in). */
  identityProviders: IdentityProviderConfig[];
  /** The deadline of each call to an upstream provider (discovery, token, userinfo). */
  identityProviderTimeoutMs: number;
  webDistDir: string;
  bodyLimit: number;
  hsts: boolean;
  shutdownGraceMs: number;
  /** Processes serving on the port (PostgreSQL only): one primary forks and watches them (cluster.ts). */
  workers: number;
  /** /metrics is served only with this bearer token (null: off). */
  metricsToken: string | null;
  /** The browser suite's movable clock and its endpoint (NODE_ENV=test only). */
  testClock: boolean;
  /**
   * Keys sealing health identifiers and indexing the INS (docs/security.md); null: not configured,
   * generated into DATA_DIR on first start (refused in production).
   */
  dataKeys: { encryption: DataKey[] | null; index: Buffer[] | null };
  /**
   * `/api/dev/outbox` (every code and link in clear) is served only outside production and only
   * when no real transport is configured: once SMTP or an SMS gateway is set, messages are real.
   */
  devOutbox: boolean;
}

/** A configuration the server refuses: one line per bad variable, for the operator. */
export class ConfigError extends Error {}

/** Variables whose value is never printed back (secrets), and URL credentials, which are masked. */
const SECRET_NAME = /SECRET|PASSWORD|TOKEN|_KEY$|DSN/;

function shownValue(name: string, value: unknown): string {
  if (typeof value !== 'string') return '(unset)';
  if (SECRET_NAME.test(name)) return '(hidden)';
  const masked = value.replace(/\/\/[^/@\s]*@/, '//***@');
  return JSON.stringify(masked.length > 80 ? `${masked.slice(0, 80)}…` : masked);
}

const ENGLISH_ISSUES = z.locales.en().localeError;

/**
 * Reads and validates the environment; throws ConfigError with one line per bad variable, naming
 * it, what was given (secrets hidden) and what is accepted.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const blank = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''));
  // Read by operators, in English: not the validation keys the domain gives API refusals.
  const parsed = envSchema.safeParse(blank, { error: ENGLISH_ISSUES });
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => {
      const name = i.path.join('.');
      return `Invalid configuration: ${name}=${shownValue(name, blank[name])}: ${i.message}`;
    });
    throw new ConfigError(lines.join('\n'));
  }
  const e = parsed.data;
  if ((e.ADMIN_EMAIL === undefined) !== (e.ADMIN_PASSWORD === undefined)) {
    throw new ConfigError('Invalid configuration: ADMIN_EMAIL and ADMIN_PASSWORD go together');
  }
  if (e.SESSION_ABSOLUTE_TIMEOUT < e.SESSION_IDLE_TIMEOUT) {
    throw new ConfigError(
      'Invalid configuration: SESSION_ABSOLUTE_TIMEOUT must be ≥ SESSION_IDLE_TIMEOUT',
    );
  }
  if (e.NODE_ENV === 'production' && (!e.SMTP_URL || !e.SMS_GATEWAY_URL)) {
    // The dev outbox would keep codes on the console: a real deployment must deliver them.
    throw new ConfigError(
      'Invalid configuration: NODE_ENV=production needs SMTP_URL and SMS_GATEWAY_URL (the dev outbox is refused)',
    );
  }
  if (e.HYGIE_TEST_CLOCK && e.NODE_ENV !== 'test') {
    // Moving time would let anyone skip every cooldown and expiry: only a server run by the tests.
    throw new ConfigError('Invalid configuration: HYGIE_TEST_CLOCK needs NODE_ENV=test');
  }
  if (e.WORKERS > 1 && !e.DATABASE_URL) {
    // Each process would write the one SQLite file, and the embedded database serves one.
    throw new ConfigError(
      'Invalid configuration: WORKERS above 1 needs PostgreSQL (DATABASE_URL): SQLite serves one process',
    );
  }
  if (e.WORKERS > 1 && e.HYGIE_TEST_CLOCK) {
    throw new ConfigError(
      'Invalid configuration: HYGIE_TEST_CLOCK runs one process (each would have its own clock): leave WORKERS at 1',
    );
  }
  const identityProviders = upstreamProviders(e);
  const dataKeys = {
    encryption: keysFrom(e, 'DATA_ENCRYPTION_KEY', parseDataKeys),
    index: keysFrom(e, 'DATA_INDEX_KEY', parseIndexKeys),
  };
  if (e.NODE_ENV === 'production' && (!dataKeys.encryption || !dataKeys.index)) {
    // A generated key would sit beside the database it protects: production brings its own.
    const missing = dataKeys.encryption ? 'DATA_INDEX_KEY' : 'DATA_ENCRYPTION_KEY';
    throw new ConfigError(
      `Invalid configuration: NODE_ENV=production needs ${missing} (or ${missing}_FILE): see docs/deployment.md`,
    );
  }
  const publicUrl = new URL(e.PUBLIC_URL ?? `http://localhost:${e.PORT}`);
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    env: e.NODE_ENV,
    production: e.NODE_ENV === 'production',
    devOutbox: e.NODE_ENV !== 'production' && !e.SMTP_URL && !e.SMS_GATEWAY_URL,
    host: e.HOST,
    port: e.PORT,
    publicUrl,
    dataDir,
    database: e.DATABASE_URL
      ? {
          kind: 'postgres',
          url: e.DATABASE_URL,
          poolMax: e.DATABASE_POOL_MAX,
          statementTimeoutMs: e.DATABASE_STATEMENT_TIMEOUT_MS,
        }
      : { kind: 'sqlite', file: path.join(dataDir, 'hygie.sqlite') },
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    sessionSecret: e.SESSION_SECRET,
    session: { idleSeconds: e.SESSION_IDLE_TIMEOUT, absoluteSeconds: e.SESSION_ABSOLUTE_TIMEOUT },
    xsrfCookieName: e.XSRF_COOKIE_NAME,
    argon2: {
      memoryCost: e.ARGON2_MEMORY_KIB,
      timeCost: e.ARGON2_TIME_COST,
      parallelism: e.ARGON2_PARALLELISM,
    },
    hashing: hashingOf(e.HASH_CONCURRENCY, e.HASH_QUEUE_LIMIT, e.WORKERS),
    admin:
      e.ADMIN_EMAIL && e.ADMIN_PASSWORD
        ? { email: e.ADMIN_EMAIL, password: e.ADMIN_PASSWORD }
        : undefined,
    contactEmail: e.CONTACT_EMAIL,
    timeZone: e.TIME_ZONE,
    support: {
      name: e.SUPPORT_NAME,
      phone: e.SUPPORT_PHONE ?? null,
      website: e.SUPPORT_WEBSITE ?? null,
      headOffice: e.SUPPORT_HEAD_OFFICE ?? null,
      links: e.SUPPORT_LINKS ?? [],
    },
    legal: {
      publisherName: e.LEGAL_PUBLISHER_NAME ?? null,
      publisherAddress: e.LEGAL_PUBLISHER_ADDRESS ?? null,
      publisherRegistration: e.LEGAL_PUBLISHER_REGISTRATION ?? null,
      publicationDirector: e.LEGAL_PUBLICATION_DIRECTOR ?? null,
      hostName: e.LEGAL_HOST_NAME ?? null,
      hostAddress: e.LEGAL_HOST_ADDRESS ?? null,
      hostHdsCertificate: e.LEGAL_HOST_HDS_CERTIFICATE ?? null,
      dpoContact: e.LEGAL_DPO_CONTACT ?? null,
      accessibilityDate: e.LEGAL_ACCESSIBILITY_DATE,
    },
    smtp: e.SMTP_URL
      ? { url: e.SMTP_URL, from: e.SMTP_FROM, timeoutMs: e.SMTP_TIMEOUT_MS }
      : undefined,
    sms: e.SMS_GATEWAY_URL
      ? {
          url: e.SMS_GATEWAY_URL,
          token: e.SMS_GATEWAY_TOKEN,
          sender: e.SMS_SENDER,
          timeoutMs: e.SMS_GATEWAY_TIMEOUT_MS,
        }
      : undefined,
    outbox: {
      pollMs: e.OUTBOX_POLL_MS,
      sendTimeoutMs: e.OUTBOX_SEND_TIMEOUT_MS,
      concurrency: e.OUTBOX_CONCURRENCY,
    },
    sentry: { dsn: e.SENTRY_DSN ?? null, environment: e.SENTRY_ENVIRONMENT },
    oidc: { refreshReuseGraceSeconds: e.OIDC_REFRESH_REUSE_GRACE_SECONDS },
    identityProviders,
    identityProviderTimeoutMs: e.IDP_TIMEOUT_MS,
    webDistDir: path.resolve(
      e.WEB_DIST_DIR ?? path.join(import.meta.dirname, '..', '..', 'web', 'dist'),
    ),
    bodyLimit: e.BODY_LIMIT,
    hsts: e.HSTS ?? publicUrl.protocol === 'https:',
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    workers: e.WORKERS,
    metricsToken: e.METRICS_TOKEN ?? null,
    testClock: e.HYGIE_TEST_CLOCK ?? false,
    dataKeys,
  };
}

/**
 * The providers whose issuer is set. An issuer needs its client id and secret (and the reverse);
 * in production it is reached over https only.
 */
function upstreamProviders(e: Env): IdentityProviderConfig[] {
  return UPSTREAM_PROVIDERS.flatMap(({ id, prefix, claims }) => {
    const issuer = e[`${prefix}_ISSUER`];
    const clientId = e[`${prefix}_CLIENT_ID`];
    const clientSecret = e[`${prefix}_CLIENT_SECRET`];
    if (issuer === undefined && clientId === undefined && clientSecret === undefined) return [];
    if (issuer === undefined || clientId === undefined || clientSecret === undefined) {
      throw new ConfigError(
        `Invalid configuration: ${prefix}_ISSUER, ${prefix}_CLIENT_ID and ${prefix}_CLIENT_SECRET go together`,
      );
    }
    const url = new URL(issuer);
    if (e.NODE_ENV === 'production' && url.protocol !== 'https:') {
      throw new ConfigError(`Invalid configuration: ${prefix}_ISSUER must be https in production`);
    }
    return [
      {
        id,
        claims,
        issuer: url,
        clientId,
        clientSecret,
        scopes: e[`${prefix}_SCOPES`],
        acrValues: e[`${prefix}_ACR_VALUES`],
      },
    ];
  });
}

/** Parses a 32-byte base64 key, or says why not. */
export function parseKeyBytes(text: string): Buffer | string {
  const trimmed = text.trim();
  const bytes = Buffer.from(trimmed, 'base64');
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed) || bytes.length !== KEY_BYTES) {
    return `expected ${KEY_BYTES} bytes in base64 (e.g. openssl rand -base64 32)`;
  }
  return bytes;
}

/** `id:base64` entries, comma-separated, the active key first; a lone base64 key has id `1`. */
export function parseDataKeys(text: string): DataKey[] | string {
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  const keys: DataKey[] = [];
  for (const entry of entries) {
    const colon = entry.indexOf(':');
    const id = colon < 0 ? '1' : entry.slice(0, colon);
    const key = parseKeyBytes(colon < 0 ? entry : entry.slice(colon + 1));
    if (!KEY_ID.test(id)) return `key id "${id}": expected 1 to 16 letters or digits`;
    if (typeof key === 'string') return `key "${id}": ${key}`;
    if (keys.some((k) => k.id === id)) return `key id "${id}" appears twice`;
    keys.push({ id, key });
  }
  return keys.length > 0 ? keys : 'expected id:base64 entries, comma-separated, active first';
}

/**
 * Base64 keys, comma-separated, the active one first: the later ones are index keys being replaced
 * (lookups try them until `data:rotate-key --index` has rebuilt every index).
 */
function parseIndexKeys(text: string): Buffer[] | string {
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (entries.length === 0)
    return `expected ${KEY_BYTES} bytes in base64 (e.g. openssl rand -base64 32)`;
  const keys: Buffer[] = [];
  for (const [i, entry] of entries.entries()) {
    const key = parseKeyBytes(entry);
    if (typeof key === 'string') return entries.length === 1 ? key : `key ${i + 1}: ${key}`;
    if (keys.some((k) => k.equals(key))) return `key ${i + 1} appears twice`;
    keys.push(key);
  }
  return keys;
}

/**
 * A key variable read from itself or from its `_FILE` (a mounted secret), parsed; null when
 * neither is set. Throws ConfigError naming the variable (never printing the key).
 */
function keysFrom<T>(
  e: Env,
  name: 'DATA_ENCRYPTION_KEY' | 'DATA_INDEX_KEY',
  parse: (text: string) => T | string,
): T | null {
  const file = e[`${name}_FILE`];
  const direct = e[name];
  if (file !== undefined && direct !== undefined) {
    throw new ConfigError(`Invalid configuration: ${name} and ${name}_FILE are exclusive`);
  }
  let text = direct;
  let shown: string = name;
  if (file !== undefined) {
    shown = `${name}_FILE=${JSON.stringify(file)}`;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (err) {
      const code = err instanceof Error && 'code' in err ? String(err.code) : 'unreadable';
      throw new ConfigError(`Invalid configuration: ${shown}: cannot read the file (${code})`);
    }
  }
  if (text === undefined) return null;
  const parsed = parse(text);
  if (typeof parsed === 'string') {
    throw new ConfigError(`Invalid configuration: ${shown}: ${parsed}`);
  }
  return parsed;
}

/**
 * A process's hashing threads: by default its share of the cores, the processes (WORKERS) together
 * having one a core; 32 waiting jobs per thread (a few seconds at the default cost).
 */
function hashingOf(
  concurrency: number | undefined,
  queueLimit: number | undefined,
  processes: number,
): Config['hashing'] {
  const threads = concurrency ?? Math.max(1, Math.ceil(availableParallelism() / processes));
  return { concurrency: threads, queueLimit: queueLimit ?? threads * 32 };
}
