import { beforeAll, describe, expect, it } from 'vitest';
import type { i18n as I18n } from 'i18next';
import { LANGUAGES } from '@hygie/domain';
import { createI18n, NAMESPACES } from './i18n';

// Counts are said with the language's plural rules everywhere (Arabic: zero, one, two, few, many,
// other): a text that interpolates a count is a plural key with every form of its language, and
// no text puts a number of days, hours, minutes or seconds next to a noun of its own.

type Tree = { [key: string]: string | Tree };

const localeFiles = import.meta.glob<Tree>('../locales/*/*.json', {
  eager: true,
  import: 'default',
});

function flatten(tree: Tree, prefix = ''): [string, string][] {
  return Object.entries(tree).flatMap(([key, value]): [string, string][] => {
    const path = prefix ? `${prefix}.${key}` : key;
    return typeof value === 'string' ? [[path, value]] : flatten(value, path);
  });
}

/** "namespace:key" → text, for one language. */
function texts(language: string): [string, string][] {
  return NAMESPACES.flatMap((namespace) =>
    flatten(localeFiles[`../locales/${language}/${namespace}.json`] ?? {}).map(
      ([key, text]): [string, string] => [`${namespace}:${key}`, text],
    ),
  );
}

const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

/** Variables that would carry a number of a unit said by the text itself, unpluralised. */
const COUNTED_VARIABLES = /{{(days|hours|minutes|seconds|remaining|attempts|tries|number)}}/;
/** Where such a variable holds words already (the wait's parts, each pluralised). */
const WORDS_ALREADY = new Set(['wait:hoursAndMinutes']);

describe.each(LANGUAGES)('counts in %s', (language) => {
  const entries = texts(language);
  const forms = new Intl.PluralRules(language).resolvedOptions().pluralCategories;

  it('finds the texts', () => {
    expect(entries.length).toBeGreaterThan(300);
  });

  it('puts every {{count}} in a plural key with every form of the language', () => {
    const keys = new Set(entries.map(([key]) => key));
    const problems = entries.flatMap(([key, text]) => {
      if (!text.includes('{{count}}') && !PLURAL_SUFFIX.test(key)) return [];
      if (!PLURAL_SUFFIX.test(key)) return [`${key}: {{count}} without plural forms`];
      const base = key.replace(PLURAL_SUFFIX, '');
      return forms.filter((form) => !keys.has(`${base}_${form}`)).map((form) => `${base}_${form}`);
    });
    expect([...new Set(problems)]).toEqual([]);
  });

  it('says no number of a unit but through a count', () => {
    const problems = entries
      .filter(([key, text]) => COUNTED_VARIABLES.test(text) && !WORDS_ALREADY.has(key))
      .map(([key]) => key);
    expect(problems).toEqual([]);
  });
});

describe('plural forms as people read them', () => {
  const i18n: Partial<Record<string, I18n>> = {};
  beforeAll(async () => {
    for (const language of LANGUAGES) i18n[language] = await createI18n(language);
  });
  const say = (language: string, key: string, count: number) => i18n[language]?.t(key, { count });

  it.each([
    [0, 'لم تُنهَ أي جلسة أخرى.'],
    [1, 'أُنهيت جلسة أخرى واحدة.'],
    [2, 'أُنهيت جلستان أخريان.'],
    [3, 'أُنهيت 3 جلسات أخرى.'],
    [11, 'أُنهيت 11 جلسة أخرى.'],
    [100, 'أُنهيت 100 جلسة أخرى.'],
  ])('ended sessions: %i in Arabic', (count, text) => {
    expect(say('ar', 'self-service:sessions.endedOthers', count)).toBe(text);
  });

  it.each([
    ['fr', 1, 'Un appareil de confiance est mémorisé 1 jour.'],
    ['fr', 30, 'Un appareil de confiance est mémorisé 30 jours.'],
    ['en', 1, 'A trusted device is remembered for 1 day.'],
    ['ar', 1, 'يُتذكَّر الجهاز الموثوق لمدة يوم واحد.'],
    ['ar', 2, 'يُتذكَّر الجهاز الموثوق لمدة يومين.'],
    ['ar', 7, 'يُتذكَّر الجهاز الموثوق لمدة 7 أيام.'],
    ['ar', 30, 'يُتذكَّر الجهاز الموثوق لمدة 30 يومًا.'],
    ['ar', 365, 'يُتذكَّر الجهاز الموثوق لمدة 365 يومًا.'],
    ['ar', 300, 'يُتذكَّر الجهاز الموثوق لمدة 300 يوم.'],
  ])('a trusted device kept: %s, %i days', (language, count, text) => {
    expect(say(language, 'legal:privacy.retention.devices', count)).toBe(text);
  });

  it.each(LANGUAGES)('the wait units built at run time exist in %s', (language) => {
    for (const unit of ['seconds', 'minutes', 'hours']) {
      expect(i18n[language]?.exists(`wait:${unit}`, { count: 2 })).toBe(true);
    }
  });
});
