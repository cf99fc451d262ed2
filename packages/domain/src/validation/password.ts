import { LIMITS } from '../constants.js';
import type { PasswordDictionary } from './common-passwords.js';
import { isCommonPassword } from './common-passwords.js';

/** Why a password is refused; several may apply at once. */
export const PASSWORD_PROBLEMS = [
  'too_short',
  'too_long',
  'missing_digit',
  'missing_lowercase',
  'missing_uppercase',
  'too_common',
  'contains_personal_info',
] as const;
export type PasswordProblem = (typeof PASSWORD_PROBLEMS)[number];

/** What the user told us about themselves, which their password must not contain. */
export interface PasswordContext {
  email?: string;
  names?: string[];
  /** The words a password must not be (the built-in list when absent). */
  dictionary?: PasswordDictionary;
}

/** Personal tokens shorter than this match too much by chance to be refused. */
const MIN_PERSONAL_TOKEN_LENGTH = 3;

/** The form a password is checked and hashed in: Unicode NFKC, every character kept. */
export function normalizePassword(pw: string): string {
  return pw.normalize('NFKC');
}

/** Case- and accent-insensitive form used to look for personal information. */
function fold(value: string): string {
  return value.normalize('NFKC').normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** The e-mail local part and the names, whole and split into words, long enough to matter. */
function personalTokens(context: PasswordContext): string[] {
  const sources: string[] = [];
  if (context.email !== undefined) {
    const at = context.email.lastIndexOf('@');
    const local = at < 0 ? context.email : context.email.slice(0, at);
    sources.push(local, ...local.split(/[._+-]+/u));
  }
  for (const name of context.names ?? []) sources.push(name, ...name.split(/[\s'’-]+/u));
  return sources
    .map((token) => fold(token.trim()))
    .filter((token) => [...token].length >= MIN_PERSONAL_TOKEN_LENGTH);
}

/**
 * Problems of a password against the rule: 8 to 128 characters after NFKC (never truncated),
 * a digit, a lower- and an upper-case letter, not a common password, no e-mail local part or name.
 * An empty list means the password is acceptable.
 */
export function checkPassword(pw: string, context: PasswordContext = {}): PasswordProblem[] {
  const password = normalizePassword(pw);
  const length = [...password].length;
  const problems: PasswordProblem[] = [];
  if (length < LIMITS.passwordMin) problems.push('too_short');
  if (length > LIMITS.passwordMax) problems.push('too_long');
  if (!/\p{Nd}/u.test(password)) problems.push('missing_digit');
  if (!/\p{Ll}/u.test(password)) problems.push('missing_lowercase');
  if (!/\p{Lu}/u.test(password)) problems.push('missing_uppercase');
  if (isCommonPassword(password, context.dictionary)) problems.push('too_common');
  const folded = fold(password);
  if (personalTokens(context).some((token) => folded.includes(token))) {
    problems.push('contains_personal_info');
  }
  return problems;
}
