import { asLanguage, DEFAULT_LANGUAGE, RTL_LANGUAGES, type Language } from '@hygie/domain';
import { readStorage, writeStorage } from './storage';

export const LANGUAGE_STORAGE_KEY = 'lang';

/** The language to start with: localStorage `lang`, else the browser's languages, else fr. */
export function detectLanguage(
  stored: string | null,
  browserLanguages: readonly string[],
): Language {
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
  return detectLanguage(readStorage('localStorage', LANGUAGE_STORAGE_KEY), browser);
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
