import { asLanguage, DEFAULT_LANGUAGE, RTL_LANGUAGES, type Language } from '@hygie/domain';
import { readStorage, writeStorage } from './storage';

export const LANGUAGE_STORAGE_KEY = 'lang';

/**
 * The language to start with: the address's `?l=` (a platform passing its user's `ui_locales`
 * through the sign-in), else localStorage `lang`, else the browser's languages, else fr.
 */
export function detectLanguage(
  stored: string | null,
  browserLanguages: readonly string[],
  requested: string | null = null,
): Language {
  const fromAddress = asLanguage(requested);
  if (fromAddress) return fromAddress;
  const fromStorage = asLanguage(stored);
  if (fromStorage) return fromStorage;
  for (const tag of browserLanguages) {
    const found = asLanguage(tag.toLowerCase().split(/[-_]/)[0]);
    if (found) return found;
  }
  return DEFAULT_LANGUAGE;
}

export function detectLanguageFromWindow(win: Window = window): Language {
  const browser = win.navigator.languages?.length
    ? win.navigator.languages
    : [win.navigator.language].filter(Boolean);
  const requested = new URLSearchParams(win.location.search).get('l');
  return detectLanguage(readStorage('localStorage', LANGUAGE_STORAGE_KEY), browser, requested);
}

export function isRtl(language: string): boolean {
  return RTL_LANGUAGES.some((rtl) => rtl === language);
}

export function directionOf(language: string): 'ltr' | 'rtl' {
  return isRtl(language) ? 'rtl' : 'ltr';
}

/** Mirrors the language on `<html lang dir>`. */
export function applyDocumentLanguage(language: string, doc: Document = document): void {
  doc.documentElement.lang = language;
  doc.documentElement.dir = directionOf(language);
}

/** Remembers an explicit choice of the user. */
export function rememberLanguage(language: Language): void {
  writeStorage('localStorage', LANGUAGE_STORAGE_KEY, language);
}

export function currentLanguage(value: string | undefined): Language {
  return asLanguage(value) ?? DEFAULT_LANGUAGE;
}
