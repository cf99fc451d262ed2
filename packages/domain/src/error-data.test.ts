import { describe, expect, expectTypeOf, it } from 'vitest';
import { ERROR_DATA, parseErrorData, type ErrorData } from './error-data.js';
import { errorEnvelopeSchema } from './error-envelope.js';
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

  it('accepts an envelope only with the data its code declares', () => {
    const message = 'm';
    const ok = (body: unknown) => errorEnvelopeSchema.safeParse(body).success;
    expect(ok({ code: 'bad_credentials', message })).toBe(true);
    expect(ok({ code: 'bad_credentials', message, data: { retryAfterSeconds: 1 } })).toBe(false);
    expect(ok({ code: 'wait_before_retry', message, data: { retryAfterSeconds: 30 } })).toBe(true);
    expect(ok({ code: 'wait_before_retry', message })).toBe(false);
    expect(ok({ code: 'wait_before_retry', message, data: { seconds: 30 } })).toBe(false);
    expect(ok({ code: 'too_many_attempts', message })).toBe(true);
    expect(ok({ code: 'no_such_code', message })).toBe(false);
  });
});
