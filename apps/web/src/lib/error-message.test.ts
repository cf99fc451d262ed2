import { beforeAll, describe, expect, it } from 'vitest';
import type { i18n as I18n } from 'i18next';
import { createI18n } from '../app/i18n';
import { ApiError } from './api-client';
import { errorMessage, isolate } from './error-message';

describe('error messages', () => {
  let i18n: I18n;
  beforeAll(async () => {
    i18n = await createI18n('fr');
  });

  it('translates by code', () => {
    const error = new ApiError({ status: 401, code: 'bad_credentials', message: 'server text' });
    expect(errorMessage(i18n, error)).toBe(
      'Identifiants incorrects, vérifiez votre adresse e-mail et votre mot de passe',
    );
  });

  it('interpolates the contact e-mail of a locked account, isolated for RTL', () => {
    const error = new ApiError({
      status: 423,
      code: 'account_locked',
      data: { contactEmail: 'dpo@hygie.example' },
    });
    expect(errorMessage(i18n, error)).toBe(
      `L’accès au compte a été verrouillé, contactez ${isolate('dpo@hygie.example')}`,
    );
  });

  it('falls back to the configured contact e-mail', () => {
    const error = new ApiError({ status: 423, code: 'account_locked' });
    expect(errorMessage(i18n, error, { contactEmail: 'support@hygie.example' })).toContain(
      'support@hygie.example',
    );
  });

  it('says how long to wait when the server tells it', () => {
    const error = new ApiError({
      status: 429,
      code: 'too_many_attempts',
      data: { retryAfterSeconds: 42 },
    });
    expect(errorMessage(i18n, error)).toBe('Trop de tentatives. Réessayez dans 42 secondes.');
  });

  it('says "try later" without a duration', () => {
    const error = new ApiError({ status: 429, code: 'too_many_attempts' });
    expect(errorMessage(i18n, error)).toBe('Trop de tentatives. Veuillez réessayer plus tard.');
  });

  it('falls back to the server message for an unknown code, then to the generic message', () => {
    expect(
      errorMessage(
        i18n,
        new ApiError({ status: 418, code: 'teapot', message: 'Je suis une théière' }),
      ),
    ).toBe('Je suis une théière');
    expect(errorMessage(i18n, new ApiError({ status: 500 }))).toBe('Une erreur est survenue.');
    expect(errorMessage(i18n, new Error('boom'))).toBe('Une erreur est survenue.');
  });

  it('explains a network failure', () => {
    expect(errorMessage(i18n, new ApiError({ status: 0 }))).toMatch(/joindre le serveur/);
  });
});
