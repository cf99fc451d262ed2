import type { PasswordDictionary } from '@hygie/domain';
import { PRODUCT_WORDS } from '@hygie/domain';
import { dictionary as common } from '@zxcvbn-ts/language-common';
import { dictionary as french } from '@zxcvbn-ts/language-fr';

/** Lower case, NFKC, without accents: the form `isCommonPassword` compares in. */
function fold(word: string): string {
  return word.normalize('NFKC').normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

let loaded: PasswordDictionary | undefined;

/**
 * The words a password may not be, checked locally (no network call): the maintained lists of
 * zxcvbn-ts — the most common passwords of public breaches, French first names, last names and
 * common words — and the product's names. A password is refused when it is one of them, as typed
 * or undressed ("Liverpool1", "P@ssw0rd!", "Camille1", "Hygie2024"; see `isCommonPassword`).
 * Built on first use (about 90,000 words).
 */
export function passwordDictionary(): PasswordDictionary {
  loaded ??= new Set(
    [
      ...common['passwords-common'],
      ...french['firstnames-fr'],
      ...french['lastnames-fr'],
      ...french['commonWords-fr'],
      ...PRODUCT_WORDS,
    ].map(fold),
  );
  return loaded;
}
