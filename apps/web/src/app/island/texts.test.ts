import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '@hygie/domain';
import { createI18n, FIRST_NAMESPACES } from '../i18n';
import { createTexts, loadFirstTranslations } from './texts';

/** Every text of a translation file: its dotted path → the text. */
function leaves(tree: unknown, prefix = ''): [string, string][] {
  if (typeof tree === 'string') return [[prefix, tree]];
  if (typeof tree !== 'object' || tree === null) return [];
  return Object.entries(tree).flatMap(([key, value]) =>
    leaves(value, prefix ? `${prefix}.${key}` : key),
  );
}

const PLURAL = /_(zero|one|two|few|many|other)$/;
const COUNTS = [0, 1, 2, 3, 5, 11, 100, 101];

describe('the island’s texts', () => {
  it.each(LANGUAGES)(
    'give every first text as i18next does, plurals and values included (%s)',
    async (language) => {
      const i18n = await createI18n(language);
      const texts = createTexts(language, await loadFirstTranslations(language));
      let compared = 0;
      for (const namespace of FIRST_NAMESPACES) {
        const translations: unknown = i18n.getResourceBundle(language, namespace);
        for (const [path, text] of leaves(translations)) {
          const base = path.replace(PLURAL, '');
          // Every value the text names, with a value of its own; and one it does not name.
          const values = Object.fromEntries(
            [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map(([, name = '']) => [name, `«${name}»`]),
          );
          const key = `${namespace}:${base}`;
          const cases: Record<string, string | number>[] = PLURAL.test(path)
            ? COUNTS.map((count) => ({ ...values, count }))
            : [values, { ...values, unused: 'x' }];
          for (const options of cases) {
            expect(texts.t(key, options), `${key} ${JSON.stringify(options)}`).toBe(
              i18n.t(key, options),
            );
            compared++;
          }
          expect(texts.exists(key), key).toBe(i18n.exists(key));
        }
      }
      // The default namespace, and a value left out.
      expect(texts.t('skipToContent')).toBe(i18n.t('skipToContent'));
      expect(texts.t('login:idp.link', {})).toBe(i18n.t('login:idp.link', {}));
      expect(compared).toBeGreaterThan(300);
    },
  );

  it('says a key it lacks by its path, as i18next does', async () => {
    const texts = createTexts('fr', await loadFirstTranslations('fr'));
    expect(texts.t('login:nothing.here')).toBe('nothing.here');
    expect(texts.exists('login:nothing.here')).toBe(false);
    expect(texts.exists('security:title')).toBe(false);
  });
});
