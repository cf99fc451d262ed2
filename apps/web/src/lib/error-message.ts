import type { i18n as I18n } from 'i18next';
import { ApiError } from './api-client';

/**
 * Codes whose wait (`data.retryAfterSeconds`, or `data.seconds` of wait_before_retry) turns the
 * message into "try again in {{count}} seconds" (the `<code>_retry` plural key).
 */
const RETRY_CODES = new Set([
  'too_many_attempts',
  'wait_before_retry',
  'code_already_sent',
  'too_many_requests',
]);

/** Keeps e-mails and phone numbers in their own direction inside Arabic sentences. */
export function isolate(value: string): string {
  return `\u2068${value}\u2069`;
}

function interpolationValues(
  data: Record<string, unknown> | undefined,
  defaults: Record<string, string>,
): Record<string, string | number> {
  const values: Record<string, string | number> = {};
  for (const [key, value] of Object.entries({ ...defaults, ...data })) {
    if (typeof value === 'number') values[key] = value;
    else if (typeof value === 'string') values[key] = isolate(value);
  }
  return values;
}

/**
 * The message to show for a failed call: the translation of its code (the code is the key), else
 * the server's message, else the generic "An error occurred.".
 */
export function errorMessage(
  i18n: I18n,
  error: unknown,
  defaults: Record<string, string> = {},
): string {
  if (error instanceof ApiError) {
    const { code, data } = error;
    if (code) {
      const seconds = data?.retryAfterSeconds ?? data?.seconds;
      if (RETRY_CODES.has(code) && typeof seconds === 'number' && seconds >= 0) {
        const key = `errors:${code}_retry`;
        if (i18n.exists(key, { count: Math.ceil(seconds) })) {
          return i18n.t(key, { count: Math.ceil(seconds) });
        }
      }
      const remaining = data?.remainingAttempts;
      if (code === 'wrong_code' && typeof remaining === 'number' && remaining >= 0) {
        return i18n.t('errors:wrong_code_remaining', { count: remaining });
      }
      const key = `errors:${code}`;
      if (i18n.exists(key)) return i18n.t(key, interpolationValues(data, defaults));
    }
    if (error.serverMessage) return error.serverMessage;
    if (error.status === 0) return i18n.t('errors:network');
  }
  return i18n.t('errors:generic');
}
