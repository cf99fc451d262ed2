import { describe, expect, it } from 'vitest';
import {
  AUDIT_ACTIONS,
  ERROR_CODES,
  LANGUAGES,
  MY_ACTIVITY_ACTIONS,
  VALIDATION_MESSAGES,
} from '@hygie/domain';
import { NAMESPACES } from './i18n';

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Record<string, string> {
  return Object.entries(tree).reduce<Record<string, string>>((keys, [key, value]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    return typeof value === 'string'
      ? { ...keys, [path]: value }
      : { ...keys, ...flatten(value, path) };
  }, {});
}

const localeFiles = import.meta.glob<Tree>('../locales/*/*.json', {
  eager: true,
  import: 'default',
});
const sources = import.meta.glob<string>(['../**/*.{ts,tsx}', '!../**/*.test.{ts,tsx}'], {
  eager: true,
  query: '?raw',
  import: 'default',
});

/** "namespace:key" → text, for one language */
function texts(language: string): Record<string, string> {
  return Object.fromEntries(
    NAMESPACES.flatMap((namespace) => {
      const tree = localeFiles[`../locales/${language}/${namespace}.json`] ?? {};
      return Object.entries(flatten(tree)).map(([key, text]): [string, string] => [
        `${namespace}:${key}`,
        text,
      ]);
    }),
  );
}

/** language → "namespace:key" → text */
const catalogue = Object.fromEntries(
  LANGUAGES.map((language): [string, Record<string, string>] => [language, texts(language)]),
);

const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

/** True when `key` exists in `language`, directly or with every plural form of the language. */
function has(language: string, key: string): boolean {
  const keys = catalogue[language] ?? {};
  if (key in keys) return true;
  const forms = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
  return forms.every((form) => `${key}_${form}` in keys);
}

/** Every literal "namespace:key" string of the source code. */
const usedKeys = [
  ...new Set(
    Object.entries(sources).flatMap(([file, text]) =>
      [
        ...text.matchAll(
          /['"`]((?:common|errors|validation|security|account|oauth|biometrics|admin|self-service|legal|my-data|wait):[\w.]+)['"`]/g,
        ),
      ].map((match) => `${match[1]}|${file}`),
    ),
  ),
];

describe('translations', () => {
  it('finds the keys used by the code', () => {
    expect(usedKeys.length).toBeGreaterThan(50);
  });

  it.each(LANGUAGES)('every key used by the code exists in %s', (language) => {
    const missing = usedKeys.filter((entry) => !has(language, entry.split('|')[0] ?? ''));
    expect(missing).toEqual([]);
  });

  it.each(LANGUAGES)('keys built at run time exist in %s', (language) => {
    const dynamic = LANGUAGES.map((lng) => `common:language.names.${lng}`);
    expect(dynamic.filter((key) => !has(language, key))).toEqual([]);
  });

  it.each(LANGUAGES)('every error code of the catalogue is translated in %s', (language) => {
    const missing = [...ERROR_CODES, 'generic', 'network'].filter(
      (code) => !has(language, `errors:${code}`),
    );
    expect(missing).toEqual([]);
  });

  it.each(LANGUAGES)('every audit action the server records is translated in %s', (language) => {
    const missing = AUDIT_ACTIONS.filter((action) => !has(language, `admin:events.${action}`));
    expect(missing).toEqual([]);
  });

  it.each(LANGUAGES)('every action of my activity is translated in %s', (language) => {
    const missing = MY_ACTIVITY_ACTIONS.filter(
      (action) => !has(language, `self-service:activity.events.${action}`),
    );
    expect(missing).toEqual([]);
  });

  it.each(LANGUAGES)('every validation message of the domain is translated in %s', (language) => {
    const missing = VALIDATION_MESSAGES.filter(
      (message) => !has(language, `validation:${message}`),
    );
    expect(missing).toEqual([]);
  });

  it.each(LANGUAGES)('%s has the same keys as French (plural forms aside)', (language) => {
    const base = (keys: Record<string, string>) =>
      [...new Set(Object.keys(keys).map((key) => key.replace(PLURAL_SUFFIX, '')))].sort();
    expect(base(catalogue[language] ?? {})).toEqual(base(catalogue.fr ?? {}));
  });

  it.each(LANGUAGES)('plural keys of %s have every CLDR form of the language', (language) => {
    const keys = Object.keys(catalogue[language] ?? {});
    const pluralBases = [
      ...new Set(
        keys.filter((k) => PLURAL_SUFFIX.test(k)).map((k) => k.replace(PLURAL_SUFFIX, '')),
      ),
    ];
    expect(pluralBases.filter((key) => !has(language, key))).toEqual([]);
  });

  it.each(LANGUAGES)('no empty text in %s', (language) => {
    const empty = Object.entries(catalogue[language] ?? {}).filter(([, text]) => !text.trim());
    expect(empty).toEqual([]);
  });

  it('keeps the same interpolations in every language', () => {
    const variables = (text: string) => [...text.matchAll(/{{(\w+)}}/g)].map((m) => m[1]).sort();
    const mismatched = Object.entries(catalogue.fr ?? {}).flatMap(([key, text]) => {
      if (PLURAL_SUFFIX.test(key)) return [];
      return LANGUAGES.filter(
        (language) =>
          JSON.stringify(variables(catalogue[language]?.[key] ?? '')) !==
          JSON.stringify(variables(text)),
      ).map((language) => `${language} ${key}`);
    });
    expect(mismatched).toEqual([]);
  });
});
