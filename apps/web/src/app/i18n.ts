import i18next, { type BackendModule, type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { LANGUAGES, type Language } from '@hygie/domain';
import { applyDocumentLanguage } from '../lib/language';
import { NAMESPACES, type Namespace } from './namespaces';

export { FIRST_NAMESPACES, NAMESPACES, type Namespace } from './namespaces';

/**
 * Translation files, loaded on demand: one chunk per language and namespace, but one per language
 * for the first screens' namespaces (vite.config.ts).
 */
const loaders = import.meta.glob<{ default: Record<string, unknown> }>('../locales/*/*.json');

let loadMore: (namespaces: readonly Namespace[]) => Promise<void> = () => Promise.resolve();

/** Loads `namespaces` in the current language (those loaded already are not fetched again). */
export function loadNamespaces(namespaces: readonly Namespace[]): Promise<void> {
  return loadMore(namespaces);
}

const bundledBackend: BackendModule = {
  type: 'backend',
  callbackApi: true,
  init() {},
  read(language, namespace, callback) {
    const load = loaders[`../locales/${language}/${namespace}.json`];
    if (!load) {
      callback(new Error(`No translations for ${language}/${namespace}`), false);
      return;
    }
    load().then(
      (module) => callback(null, module.default),
      (error: unknown) => callback(error instanceof Error ? error : String(error), false),
    );
  },
};

/** A new i18next instance; `<html lang dir>` follows every language change. */
export function createI18nInstance(): I18n {
  const instance = i18next.createInstance();
  instance.on('languageChanged', (lng) => applyDocumentLanguage(lng));
  return instance;
}

/** Loads `language` (the `namespaces` given, all by default) and makes the instance ready for React. */
export async function initI18n(
  instance: I18n,
  language: Language,
  namespaces: readonly Namespace[] = NAMESPACES,
): Promise<I18n> {
  loadMore = (more) => instance.loadNamespaces([...more]);
  await instance
    .use(bundledBackend)
    .use(initReactI18next)
    .init({
      lng: language,
      supportedLngs: [...LANGUAGES],
      // Every key exists in every language (locales.test.ts), so nothing falls back.
      fallbackLng: false,
      load: 'currentOnly',
      ns: [...namespaces],
      defaultNS: 'common',
      interpolation: { escapeValue: false },
      returnNull: false,
      react: { useSuspense: false },
      // Ask for the files now, not on the next tick: main.tsx makes the router meanwhile.
      initAsync: false,
    });
  return instance;
}

/** A ready instance (tests, and anywhere the language is known up front). */
export function createI18n(language: Language): Promise<I18n> {
  return initI18n(createI18nInstance(), language);
}
