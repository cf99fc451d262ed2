import type { Language, WaitUnit } from '@hygie/domain';
import { waitParts } from '@hygie/domain';

/** A count's words for each plural category of a language (Intl.PluralRules; `other` always). */
type PluralForms = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };

interface WaitWords {
  units: Record<WaitUnit, PluralForms>;
  /** Hours and the minutes left: `{hours}` and `{minutes}` are already in words. */
  hoursAndMinutes: string;
}

// The same words as the web's `wait` namespace: `{count}` is the number.
export const WAIT_WORDS: Record<Language, WaitWords> = {
  fr: {
    units: {
      seconds: { one: '{count} seconde', many: '{count} secondes', other: '{count} secondes' },
      minutes: { one: '{count} minute', many: '{count} minutes', other: '{count} minutes' },
      hours: { one: '{count} heure', many: '{count} heures', other: '{count} heures' },
    },
    hoursAndMinutes: '{hours} et {minutes}',
  },
  en: {
    units: {
      seconds: { one: '{count} second', other: '{count} seconds' },
      minutes: { one: '{count} minute', other: '{count} minutes' },
      hours: { one: '{count} hour', other: '{count} hours' },
    },
    hoursAndMinutes: '{hours} and {minutes}',
  },
  ar: {
    units: {
      seconds: {
        zero: '{count} ثانية',
        one: 'ثانية واحدة',
        two: 'ثانيتين',
        few: '{count} ثوانٍ',
        many: '{count} ثانية',
        other: '{count} ثانية',
      },
      minutes: {
        zero: '{count} دقيقة',
        one: 'دقيقة واحدة',
        two: 'دقيقتين',
        few: '{count} دقائق',
        many: '{count} دقيقة',
        other: '{count} دقيقة',
      },
      hours: {
        zero: '{count} ساعة',
        one: 'ساعة واحدة',
        two: 'ساعتين',
        few: '{count} ساعات',
        many: '{count} ساعة',
        other: '{count} ساعة',
      },
    },
    hoursAndMinutes: '{hours} و{minutes}',
  },
};

const pluralRules: Record<Language, Intl.PluralRules> = {
  fr: new Intl.PluralRules('fr'),
  en: new Intl.PluralRules('en'),
  ar: new Intl.PluralRules('ar'),
};

/** `count` with the noun in the language's plural form for it. */
export function countInWords(forms: PluralForms, language: Language, count: number): string {
  const form = forms[pluralRules[language].select(count)] ?? forms.other;
  return form.replace('{count}', String(count));
}

/**
 * A wait given in seconds, in words (the domain's `waitParts`: seconds, then whole minutes, then
 * hours and minutes), each count in the language's plural form: "ثانيتين", "50 minutes",
 * "1 heure et 5 minutes".
 */
export function waitInWords(language: Language, seconds: number): string {
  const words = WAIT_WORDS[language];
  const [first, second] = waitParts(seconds).map((part) =>
    countInWords(words.units[part.unit], language, part.count),
  );
  if (second === undefined) return first ?? '';
  return words.hoursAndMinutes.replace('{hours}', first ?? '').replace('{minutes}', second);
}
