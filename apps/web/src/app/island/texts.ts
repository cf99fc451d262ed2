import type { Language } from '@hygie/domain';
import type { TextOptions, Texts } from '../../lib/environment';
import { FIRST_NAMESPACES, type Namespace } from '../namespaces';

/** A language's translations by namespace: each a file of src/locales/<language>/. */
export type Translations = Readonly<Partial<Record<Namespace, unknown>>>;

/** The translation files; the build puts a language's first namespaces in one chunk (vite.config.ts). */
const loaders = import.meta.glob<{ default: unknown }>('../../locales/*/*.json');

/** The first screens' translations in `language` (FIRST_NAMESPACES), without i18next. */
export async function loadFirstTranslations(language: Language): Promise<Translations> {
  const entries = await Promise.all(
    FIRST_NAMESPACES.map(async (namespace): Promise<[Namespace, unknown]> => {
      const load = loaders[`../../locales/${language}/${namespace}.json`];
      if (!load) throw new Error(`No translations for ${language}/${namespace}`);
      return [namespace, (await load()).default];
    }),
  );
  return Object.fromEntries(entries);
}

function lookup(tree: unknown, path: string): string | undefined {
  let node = tree;
  for (const part of path.split('.')) {
    if (typeof node !== 'object' || node === null || !(part in node)) return undefined;
    node = Object.getOwnPropertyDescriptor(node, part)?.value;
  }
  return typeof node === 'string' ? node : undefined;
}

const VARIABLE = /\{\{\s*([\w.]+)\s*\}\}/g;

function interpolate(text: string, options: TextOptions): string {
  return text.replace(VARIABLE, (match, name: string) => {
    const value = options[name];
    if (typeof value === 'string') return value;
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    return match;
  });
}

/**
 * The texts of `translations` as i18next gives them with the portal's settings (app/i18n.ts:
 * `namespace:path` keys, `common` by default, `{{name}}` values unescaped, plural forms chosen by
 * the language's CLDR rules): the login page's island draws
 * with these before i18next is loaded (`texts.test.ts` holds every first key to i18next's).
 */
export function createTexts(language: Language, translations: Translations): Texts {
  const plurals = new Intl.PluralRules(language);
  const resolve = (key: string, options: TextOptions | undefined): string | undefined => {
    const separator = key.indexOf(':');
    const namespace = separator < 0 ? 'common' : key.slice(0, separator);
    const path = separator < 0 ? key : key.slice(separator + 1);
    const tree = FIRST_NAMESPACES.find((known) => known === namespace);
    if (!tree) return undefined;
    const count = options?.count;
    const candidates =
      typeof count === 'number'
        ? [`${path}_${plurals.select(count)}`, path, `${path}_other`]
        : [path];
    for (const candidate of candidates) {
      const found = lookup(translations[tree], candidate);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  return {
    language,
    t: (key: string, options?: TextOptions) => {
      const found = resolve(key, options);
      if (found === undefined) return key.slice(key.indexOf(':') + 1);
      return options ? interpolate(found, options) : found;
    },
    exists: (key) => resolve(key, undefined) !== undefined,
  };
}
