import { beforeAll, describe, expect, it } from 'vitest';
import type { i18n as I18n } from 'i18next';
import { createI18n } from '../app/i18n';
import { waitInWords } from './wait';

describe('a wait in words', () => {
  const languages: Record<string, I18n> = {};
  beforeAll(async () => {
    for (const language of ['fr', 'en', 'ar'] as const) {
      languages[language] = await createI18n(language);
    }
  });
  const inWords = (language: string, seconds: number) => {
    const i18n = languages[language];
    if (!i18n) throw new Error(language);
    return waitInWords(i18n, seconds);
  };

  it.each([
    [1, '1 seconde'],
    [42, '42 secondes'],
    [59, '59 secondes'],
    [60, '1 minute'],
    [61, '2 minutes'],
    // The hourly cap's wait: never "2980 secondes".
    [2980, '50 minutes'],
    [3540, '59 minutes'],
    [3541, '1 heure'],
    [3600, '1 heure'],
    [3900, '1 heure et 5 minutes'],
    [7200, '2 heures'],
  ])('says %i s as %j in French', (seconds, text) => {
    expect(inWords('fr', seconds)).toBe(text);
  });

  it.each([
    [1, '1 second'],
    [2980, '50 minutes'],
    [60, '1 minute'],
    [3600, '1 hour'],
    [5460, '1 hour and 31 minutes'],
  ])('says %i s as %j in English', (seconds, text) => {
    expect(inWords('en', seconds)).toBe(text);
  });

  // Arabic: one, two, few (3-10), many (11-99), other (100+) take different words.
  it.each([
    [1, 'ثانية واحدة'],
    [2, 'ثانيتين'],
    [5, '5 ثوانٍ'],
    [42, '42 ثانية'],
    [60, 'دقيقة واحدة'],
    [120, 'دقيقتين'],
    [600, '10 دقائق'],
    [2980, '50 دقيقة'],
    [3600, 'ساعة واحدة'],
    [7200, 'ساعتين'],
    [3 * 3600, '3 ساعات'],
    [3600 + 120, 'ساعة واحدة ودقيقتين'],
  ])('says %i s as %j in Arabic', (seconds, text) => {
    expect(inWords('ar', seconds)).toBe(text);
  });

  it('rounds a part of a second up, and never says zero', () => {
    expect(inWords('fr', 0.2)).toBe('1 seconde');
    expect(inWords('fr', 0)).toBe('1 seconde');
  });
});
