import { describe, expect, expectTypeOf, it } from 'vitest';
import { ERROR_DATA, parseErrorData, type ErrorData } from './error-data.js';
import { ERRORS } from './errors.js';

describe('the error data contract', () => {
  it('describes only codes of the catalogue', () => {
    for (const code of Object.keys(ERROR_DATA)) expect(ERRORS).toHaveProperty(code);
  });

  it('gives each code the type of its data', () => {
    expectTypeOf<ErrorData<'wait_before_retry'>>().toEqualTypeOf<{ retryAfterSeconds: number }>();
    expectTypeOf<ErrorData<'account_locked'>>().toEqualTypeOf<{ contactEmail: string }>();
    expectTypeOf<ErrorData<'bad_credentials'>>().toEqualTypeOf<undefined>();
  });

  it('reads a matching payload and refuses one of another shape', () => {
    expect(parseErrorData('wait_before_retry', { retryAfterSeconds: 42 })).toEqual({
      retryAfterSeconds: 42,
    });
    // The old name of the field is not read any more: one name for one meaning.
    expect(parseErrorData('wait_before_retry', { seconds: 42 })).toBeUndefined();
    expect(parseErrorData('wrong_code', { remainingAttempts: -1 })).toBeUndefined();
    expect(
      parseErrorData('validation_error', { fields: [{ path: 'email', message: 'x' }] }),
    ).toEqual({ fields: [{ path: 'email', message: 'x' }] });
  });

  it('has no data for codes that carry none, and optional data where the server may omit it', () => {
    expect(parseErrorData('bad_credentials', { anything: 1 })).toBeUndefined();
    expect(parseErrorData('too_many_attempts', undefined)).toBeUndefined();
    expect(parseErrorData('too_many_attempts', { retryAfterSeconds: 60 })).toEqual({
      retryAfterSeconds: 60,
    });
  });
});
