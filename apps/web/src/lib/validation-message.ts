import type { TextSource } from './environment';

/**
 * The text of a field error. The domain's field schemas use VALIDATION_MESSAGES as messages, each
 * a key of the `validation` namespace; anything else reads as the generic invalid-value text.
 * (Checked against the translations rather than the domain list: importing that list would pull
 * every validator, phone metadata included, into the login page.)
 */
export function validationMessage(
  i18n: TextSource,
  message: string | undefined,
): string | undefined {
  if (message === undefined) return undefined;
  const key = `validation:${message}`;
  if (/^[a-z_]+$/.test(message) && i18n.exists(key)) return i18n.t(key);
  return i18n.t('validation:field_invalid');
}
