import type { TextSource } from './environment';
import { ApiError } from './api-client';
import { retryAfterOf } from './form-errors';
import { waitInWords } from './wait';

/** Keeps e-mails and phone numbers in their own direction inside Arabic sentences. */
export function isolate(value: string): string {
  return `\u2068${value}\u2069`;
}

function interpolationValues(
  data: Readonly<Record<string, unknown>> | undefined,
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
  i18n: TextSource,
  error: unknown,
  defaults: Record<string, string> = {},
): string {
  if (error instanceof ApiError) {
    const { code } = error;
    if (code) {
      // A wait turns the message into "try again in 50 minutes" (the `<code>_retry` key).
      const seconds = retryAfterOf(error);
      if (seconds !== null) {
        const key = `errors:${code}_retry`;
        if (i18n.exists(key)) return i18n.t(key, { wait: waitInWords(i18n, seconds) });
      }
      const remaining = error.dataOf('wrong_code')?.remainingAttempts;
      if (remaining !== undefined) {
        return i18n.t('errors:wrong_code_remaining', { count: remaining });
      }
      const key = `errors:${code}`;
      if (i18n.exists(key)) {
        const contact = error.dataOf('account_locked') ?? error.dataOf('account_disabled');
        return i18n.t(key, interpolationValues(contact, defaults));
      }
    }
    if (error.serverMessage) return error.serverMessage;
    if (error.status === 0) return i18n.t('errors:network');
  }
  return i18n.t('errors:generic');
}
