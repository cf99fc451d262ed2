import { describe, expect, it } from 'vitest';
import { emailSchema } from '@hygie/domain';
import { createI18n } from '../app/i18n';
import { validationMessage } from './validation-message';

describe('validation messages', () => {
  it('translates the messages of the domain field schemas', async () => {
    const i18n = await createI18n('fr');
    const result = emailSchema.safeParse('not-an-email');
    const message = result.success ? undefined : result.error.issues[0]?.message;
    expect(validationMessage(i18n, message)).toBe('Adresse e-mail incorrecte');
    expect(validationMessage(i18n, 'field_required')).toBe('Ce champ est obligatoire.');
  });

  it('reads unknown messages as a generic invalid value, and nothing as nothing', async () => {
    const i18n = await createI18n('en');
    expect(validationMessage(i18n, 'Too small: expected string to have >=1 characters')).toBe(
      'Invalid value.',
    );
    expect(validationMessage(i18n, undefined)).toBeUndefined();
  });
});
