import { describe, expect, it } from 'vitest';
import { LANGUAGES, VALIDATION_MESSAGES } from '@hygie/domain';
import { validationText } from './validation-messages.js';

describe('the texts of validation messages', () => {
  it.each(LANGUAGES)('has a text for every key in %s', (language) => {
    const missing = VALIDATION_MESSAGES.filter((m) => !validationText(m, language)?.trim());
    expect(missing).toEqual([]);
  });

  it.each(['fr', 'ar'] as const)('says them in %s, not in English', (language) => {
    const english = VALIDATION_MESSAGES.filter(
      (m) => validationText(m, language) === validationText(m, 'en'),
    );
    expect(english).toEqual([]);
  });
});
