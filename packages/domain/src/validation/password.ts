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
  'too_weak',
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

/**
 * Personal words shorter than this are ignored: two letters are in too many passwords by chance.
 * Words of exactly this length count only as a word of their own in the password (not next to a
 * letter): "Luc2024!" contains the first name Luc, "Lucky2024" does not, and the e-mail
 * jea@… does not make "Jeanne" personal.
 */
const MIN_PERSONAL_TOKEN_LENGTH = 3;
/** Personal words this long or longer are refused anywhere in the password. */
const ANYWHERE_PERSONAL_TOKEN_LENGTH = 4;

/** The form a password is checked and hashed in: Unicode NFKC, every character kept. */
export function normalizePassword(pw: string): string {
  return pw.normalize('NFKC');
}

/** Case- and accent-insensitive form used to look for personal information. */
function fold(value: string): string {
  return value.normalize('NFKC').normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** Separators inside an e-mail local part, and the seams between its letters and digits. */
const EMAIL_SEPARATORS = /[._+-]+|(?<=\p{L})(?=\p{N})|(?<=\p{N})(?=\p{L})/u;
/** Separators inside a name. */
const NAME_SEPARATORS = /[\s'’-]+/u;

/**
 * The meaningful parts of what the user told us (CNIL 2022-100: no personal information in a
 * password): the e-mail local part, whole and split into words, and the names, whole and split
 * into words; the domain is not personal.
 */
function personalTokens(context: PasswordContext): string[] {
  const sources: string[] = [];
  if (context.email !== undefined) {
    const at = context.email.lastIndexOf('@');
    const local = at < 0 ? context.email : context.email.slice(0, at);
    sources.push(local, ...local.split(EMAIL_SEPARATORS));
  }
  for (const name of context.names ?? []) sources.push(name, ...name.split(NAME_SEPARATORS));
  return [
    ...new Set(
      sources
        .map((token) => fold(token.trim()))
        .filter((token) => [...token].length >= MIN_PERSONAL_TOKEN_LENGTH),
    ),
  ];
}

const LETTER = /\p{L}/u;

/** True when `token` is in `password`: anywhere if long, else as a word of its own. */
function containsToken(password: string, token: string): boolean {
  if ([...token].length >= ANYWHERE_PERSONAL_TOKEN_LENGTH) return password.includes(token);
  for (let at = password.indexOf(token); at >= 0; at = password.indexOf(token, at + 1)) {
    const before = password.charAt(at - 1);
    const after = password.charAt(at + token.length);
    if (!LETTER.test(before) && !LETTER.test(after)) return true;
  }
  return false;
}

/**
 * The character classes of the entropy estimate and the size of each one's alphabet: digits,
 * lower-case and upper-case letters as in ASCII, and every other character counted as one of the
 * 33 printable ASCII symbols (space included). A letter outside ASCII counts in its case's class
 * of 26: the estimate never gives more than the ASCII alphabet would.
 */
const ENTROPY_CLASSES: readonly { pattern: RegExp; size: number }[] = [
  { pattern: /\p{Nd}/u, size: 10 },
  { pattern: /\p{Ll}/u, size: 26 },
  { pattern: /\p{Lu}/u, size: 26 },
  { pattern: /[^\p{Nd}\p{Ll}\p{Lu}]/u, size: 33 },
];

/**
 * A password's strength in bits as the ANSSI and the CNIL (délibération 2022-100) estimate it for
 * a password drawn at random: length × log2(N), where the length counts characters after NFKC and
 * N is the sum of the alphabets of the classes the password uses (digits 10, lower case 26, upper
 * case 26, others 33). With a digit, a lower- and an upper-case letter (N = 62) 9 characters give
 * 53.6 bits and 8 give 47.6; with a symbol as well (N = 95) 8 characters give 52.6.
 */
export function passwordEntropyBits(pw: string): number {
  const chars = [...normalizePassword(pw)];
  const alphabet = ENTROPY_CLASSES.filter(({ pattern }) =>
    chars.some((char) => pattern.test(char)),
  ).reduce((sum, { size }) => sum + size, 0);
  return alphabet === 0 ? 0 : chars.length * Math.log2(alphabet);
}

/**
 * Problems of a password against the rule: 8 to 128 characters after NFKC (never truncated),
 * a digit, a lower- and an upper-case letter, at least 50 bits by passwordEntropyBits (ANS
 * référentiel d'identification électronique: 9 characters, or 8 with a symbol), not a common
 * password, no e-mail local part or name.
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
  if (passwordEntropyBits(password) < LIMITS.passwordMinEntropyBits) problems.push('too_weak');
  if (isCommonPassword(password, context.dictionary)) problems.push('too_common');
  const folded = fold(password);
  if (personalTokens(context).some((token) => containsToken(folded, token))) {
    problems.push('contains_personal_info');
  }
  return problems;
}
