import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '@hygie/domain';
import { errorMessage } from './error-messages.js';
import { WAIT_WORDS, waitInWords } from './wait-words.js';

const wait = (language: 'fr' | 'en' | 'ar', seconds: number) =>
  errorMessage('wait_before_retry', language, { retryAfterSeconds: seconds });

describe('the wait before retrying, in words and plural forms', () => {
  // Arabic: one, two, few (3-10), many (11-99), other (100+) take different words.
  it.each([
    [1, 'يرجى الانتظار ثانية واحدة قبل المحاولة مجددًا.'],
    [2, 'يرجى الانتظار ثانيتين قبل المحاولة مجددًا.'],
    [3, 'يرجى الانتظار 3 ثوانٍ قبل المحاولة مجددًا.'],
    [11, 'يرجى الانتظار 11 ثانية قبل المحاولة مجددًا.'],
    [100, 'يرجى الانتظار دقيقتين قبل المحاولة مجددًا.'],
    [600, 'يرجى الانتظار 10 دقائق قبل المحاولة مجددًا.'],
    [3600 + 120, 'يرجى الانتظار ساعة واحدة ودقيقتين قبل المحاولة مجددًا.'],
  ])('%i s in Arabic', (seconds, text) => {
    expect(wait('ar', seconds)).toBe(text);
  });

  it.each([
    [1, 'Veuillez patienter 1 seconde avant de réessayer.'],
    [2, 'Veuillez patienter 2 secondes avant de réessayer.'],
    [59, 'Veuillez patienter 59 secondes avant de réessayer.'],
    [2980, 'Veuillez patienter 50 minutes avant de réessayer.'],
    [3900, 'Veuillez patienter 1 heure et 5 minutes avant de réessayer.'],
  ])('%i s in French', (seconds, text) => {
    expect(wait('fr', seconds)).toBe(text);
  });

  it.each([
    [1, 'Please wait 1 second before trying again.'],
    [11, 'Please wait 11 seconds before trying again.'],
    [60, 'Please wait 1 minute before trying again.'],
    [7200, 'Please wait 2 hours before trying again.'],
  ])('%i s in English', (seconds, text) => {
    expect(wait('en', seconds)).toBe(text);
  });

  it('counts in words with the plural category of each number, in Arabic', () => {
    expect([1, 2, 3, 11, 100, 101, 102].map((n) => waitInWords('ar', n * 3600))).toEqual([
      'ساعة واحدة',
      'ساعتين',
      '3 ساعات',
      '11 ساعة',
      '100 ساعة',
      '101 ساعة',
      '102 ساعة',
    ]);
  });

  it.each(LANGUAGES)('has every plural form of %s for each unit', (language) => {
    const forms = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
    const missing = Object.entries(WAIT_WORDS[language].units).flatMap(([unit, words]) =>
      forms.filter((form) => !(form in words)).map((form) => `${unit}_${form}`),
    );
    expect(missing).toEqual([]);
  });

  it('leaves no placeholder when the wait is not given', () => {
    expect(errorMessage('too_many_attempts', 'fr', { retryAfterSeconds: 30 })).not.toMatch(/[{}]/);
  });
});
