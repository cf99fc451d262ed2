import { isOneOf } from './one-of.js';

/** Build release reported to error tracking and shown in the UI. */
export const RELEASE = '1.4.2';

/** Supported interface languages, default first. */
export const LANGUAGES = ['fr', 'en', 'ar'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'fr';
/** Languages written right to left. */
export const RTL_LANGUAGES: readonly Language[] = ['ar'];

/** Brands: a logo and two colours each; `hygie` is the default. */
export const BRANDS = ['hygie', 'telecare'] as const;
export type Brand = (typeof BRANDS)[number];
export const DEFAULT_BRAND: Brand = 'hygie';
export const BRAND_COLORS: Record<Brand, { primary: string; secondary: string }> = {
  hygie: { primary: '#1976D2', secondary: '#83b326' },
  telecare: { primary: '#13354D', secondary: '#1AB872' },
};
export const BRAND_NAMES: Record<Brand, string> = { hygie: 'Hygie', telecare: 'Hygie Télésoin' };

/** UI timings. */
export const SESSION_WARNING_SECONDS = 300;
export const NOTIFICATION_TIMEOUT_MS = 5000;

/** Error-reporting sample rates (spec §9). */
export const SENTRY_SAMPLE_RATES = {
  tracesSampleRate: 1.0,
  replaysSessionSampleRate: 0.1,
  replaysOnErrorSampleRate: 1.0,
} as const;

/** Field limits (spec §5, §9 and domain rules). */
export const LIMITS = {
  emailMax: 180,
  firstNameMin: 1,
  firstNameMax: 100,
  nameMax: 100,
  passwordMin: 8,
  /** ANS référentiel d'identification électronique: a password set or renewed has ≥ 50 bits. */
  passwordMinEntropyBits: 50,
  passwordMax: 128,
  inseeCodeLength: 5,
  usernameMax: 180,
  /** A line of a postal address, and its city. */
  addressLineMax: 100,
} as const;

/** One-time codes and sessions (security.md); server settings may tune the durations. */
export const CODES = {
  length: 6,
  ttlSeconds: 600,
  maxAttempts: 5,
  resendCooldownSeconds: 60,
  /** Per account and purpose: nobody else's requests count against an account's own codes. */
  maxSendsPerHour: 5,
  /**
   * Per destination, counting only codes to a destination not yet proven (sign-up, a change of
   * e-mail or phone): what an SMS pumper can aim at numbers of their choosing.
   */
  maxUnprovenSendsPerDestinationPerHour: 5,
} as const;

export const SESSION_DEFAULTS = {
  idleTimeoutSeconds: 30 * 60,
  absoluteTimeoutSeconds: 12 * 60 * 60,
  trustedDeviceDays: 30,
} as const;

/** Default name of the anti-forgery cookie and the header that echoes it. */
export const XSRF_COOKIE_NAME = 'XSRF-TOKEN';
export const XSRF_HEADER_NAME = 'x-xsrf-token';
export const BRANDING_HEADER_NAME = 'x-branding';
export const LANGUAGE_QUERY_PARAM = 'l';

/** Returns the language when supported, else undefined. */
export function asLanguage(value: unknown): Language | undefined {
  return isOneOf(LANGUAGES, value) ? value : undefined;
}

/** Returns the brand when known, else undefined. */
export function asBrand(value: unknown): Brand | undefined {
  return isOneOf(BRANDS, value) ? value : undefined;
}

/**
 * The brand a page's address names (spec §1): one whose host name or path mentions "telecare",
 * else the default brand. The address's part of the brand rule: a `?branding=` or a brand
 * remembered by the browser comes first (the web client's `resolveBrand`).
 */
export function brandOfAddress(hostname: string, pathname: string): Brand {
  return `${hostname} ${pathname}`.toLowerCase().includes('telecare') ? 'telecare' : DEFAULT_BRAND;
}
