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
  it('says how long to wait from the seconds of wait_before_retry', () => {
    const error = new ApiError({
      status: 429,
      code: 'wait_before_retry',
      data: { retryAfterSeconds: 42 },
    });
    expect(errorMessage(i18n, error)).toBe('Veuillez patienter 42 secondes avant de réessayer.');
    const one = new ApiError({
      status: 429,
      code: 'wait_before_retry',
      data: { retryAfterSeconds: 1 },
    });
    expect(errorMessage(i18n, one)).toBe('Veuillez patienter 1 seconde avant de réessayer.');
  });

  it("says the hourly cap's wait in minutes or hours, not seconds", () => {
    const hourly = new ApiError({
      status: 429,
      code: 'wait_before_retry',
      data: { retryAfterSeconds: 2980 },
    });
    expect(errorMessage(i18n, hourly)).toBe('Veuillez patienter 50 minutes avant de réessayer.');
    const long = new ApiError({
      status: 429,
      code: 'too_many_attempts',
      data: { retryAfterSeconds: 3600 },
    });
    expect(errorMessage(i18n, long)).toBe('Trop de tentatives. Réessayez dans 1 heure.');
  });

  it('counts the tries left after a wrong code', () => {
    const error = new ApiError({ status: 400, code: 'wrong_code', data: { remainingAttempts: 2 } });
    expect(errorMessage(i18n, error)).toBe('Code incorrect. Il vous reste 2 essais.');
    expect(errorMessage(i18n, new ApiError({ status: 400, code: 'wrong_code' }))).toBe(
      'Code incorrect.',
    );
  });

  it.each([
    [1, 'الرمز غير صحيح. تبقّت لديك محاولة واحدة.'],
    [2, 'الرمز غير صحيح. تبقّت لديك محاولتان.'],
    [4, 'الرمز غير صحيح. تبقّت لديك 4 محاولات.'],
  ])('uses the Arabic plural for %i tries left', async (count, text) => {
    const arabic = await createI18n('ar');
    const error = new ApiError({
      status: 400,
      code: 'wrong_code',
      data: { remainingAttempts: count },
    });
    expect(errorMessage(arabic, error)).toBe(text);
  });

  it.each([
    [2, 'يرجى الانتظار ثانيتين قبل إعادة المحاولة.'],
    [5, 'يرجى الانتظار 5 ثوانٍ قبل إعادة المحاولة.'],
    [42, 'يرجى الانتظار 42 ثانية قبل إعادة المحاولة.'],
  ])('says "wait %i seconds" in Arabic', async (seconds, text) => {
    const arabic = await createI18n('ar');
    const error = new ApiError({
      status: 429,
      code: 'wait_before_retry',
      data: { retryAfterSeconds: seconds },
    });
    expect(errorMessage(arabic, error)).toBe(text);
  });
});
