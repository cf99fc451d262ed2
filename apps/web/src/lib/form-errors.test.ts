import { describe, expect, it, vi } from 'vitest';
import { ApiError } from './api-client';
import {
  applyServerErrors,
  fieldProblems,
  isCodeError,
  PASSWORD_CODE_FIELDS,
  retryAfterOf,
} from './form-errors';

type Form = { email: string; password: string; passwordConfirmation: string };
const FIELDS = ['email', 'password', 'passwordConfirmation'] as const;

const validation = (fields: unknown) =>
  new ApiError({ status: 400, code: 'validation_error', data: { fields } });

describe('server errors on form fields', () => {
  it('reads the fields of a validation error, and nothing of a malformed one', () => {
    expect(fieldProblems(validation([{ path: 'email', message: 'email_invalid' }]))).toEqual([
      { path: 'email', message: 'email_invalid' },
    ]);
    // data that does not have the catalogue's shape is not read at all
    expect(
      fieldProblems(validation([{ path: 'email', message: 'email_invalid' }, { path: 3 }])),
    ).toEqual([]);
    expect(fieldProblems(new ApiError({ status: 400, code: 'wrong_code' }))).toEqual([]);
    expect(fieldProblems(new Error('x'))).toEqual([]);
  });

  it('puts each known field message on its field, focusing the first', () => {
    const setError = vi.fn();
    const handled = applyServerErrors<Form>(
      validation([
        { path: 'email', message: 'email_invalid' },
        { path: 'password', message: 'password_personal_info' },
      ]),
      setError,
      FIELDS,
    );
    expect(handled).toBe(true);
    expect(setError.mock.calls).toEqual([
      ['email', { type: 'server', message: 'email_invalid' }, { shouldFocus: true }],
      ['password', { type: 'server', message: 'password_personal_info' }, { shouldFocus: false }],
    ]);
  });

  it('says the form must also explain fields it does not have', () => {
    const setError = vi.fn();
    const handled = applyServerErrors<Form>(
      validation([
        { path: 'email', message: 'email_invalid' },
        { path: 'version', message: 'field_required' },
      ]),
      setError,
      FIELDS,
    );
    expect(handled).toBe(false);
    expect(setError).toHaveBeenCalledTimes(1);
  });

  it('maps codes to fields', () => {
    const setError = vi.fn();
    const error = new ApiError({ status: 400, code: 'password_must_differ' });
    expect(applyServerErrors<Form>(error, setError, FIELDS, PASSWORD_CODE_FIELDS)).toBe(true);
    expect(setError).toHaveBeenCalledWith(
      'password',
      { type: 'server', message: 'password_must_differ' },
      { shouldFocus: true },
    );
  });

  it('leaves other errors to the form', () => {
    const setError = vi.fn();
    expect(
      applyServerErrors<Form>(new ApiError({ status: 503, code: 'x' }), setError, FIELDS),
    ).toBe(false);
    expect(applyServerErrors<Form>(new Error('x'), setError, FIELDS)).toBe(false);
    expect(setError).not.toHaveBeenCalled();
  });

  it('reads the wait of wait_before_retry and other 429s', () => {
    const wait = (data: Record<string, unknown>) =>
      retryAfterOf(new ApiError({ status: 429, code: 'wait_before_retry', data }));
    expect(wait({ retryAfterSeconds: 42 })).toBe(42);
    expect(
      retryAfterOf(
        new ApiError({ status: 429, code: 'too_many_attempts', data: { retryAfterSeconds: 60 } }),
      ),
    ).toBe(60);
    expect(wait({})).toBeNull();
    expect(wait({ retryAfterSeconds: 0 })).toBeNull();
    // One name for one meaning: the catalogue's `retryAfterSeconds`, nothing else.
    expect(wait({ seconds: 42 })).toBeNull();
    expect(retryAfterOf(new Error('x'))).toBeNull();
  });

  it('knows the code refusals', () => {
    for (const code of ['wrong_code', 'code_expired', 'code_invalid', 'too_many_trials']) {
      expect(isCodeError(new ApiError({ status: 400, code }))).toBe(true);
    }
    expect(isCodeError(new ApiError({ status: 429, code: 'wait_before_retry' }))).toBe(false);
  });
});
