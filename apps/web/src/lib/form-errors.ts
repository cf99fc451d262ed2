import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import type { FieldError } from '@hygie/domain';
import { ApiError, errorDataOf } from './api-client';

type FieldProblem = FieldError;

/** The `data.fields` of a 400 validation_error: `[{ path, message }]`, message a validation key. */
export function fieldProblems(error: unknown): FieldProblem[] {
  return errorDataOf(error, 'validation_error')?.fields ?? [];
}

/** The codes whose `data.retryAfterSeconds` says how long to wait (with `Retry-After`). */
const WAIT_CODES = [
  'wait_before_retry',
  'too_many_attempts',
  'too_many_requests',
  'code_already_sent',
] as const;

/** The seconds to wait given by a 429, or null when it gave none. */
export function retryAfterOf(error: unknown): number | null {
  for (const code of WAIT_CODES) {
    const seconds = errorDataOf(error, code)?.retryAfterSeconds;
    if (seconds !== undefined) return seconds > 0 ? Math.ceil(seconds) : null;
  }
  return null;
}

/**
 * Puts a server refusal on the form's fields: each `validation_error` field whose path is one of
 * `fields` (its message is a `validation` key), and the codes of `codeFields` (e.g.
 * email_already_used → email; the code is also a `validation` key). The first field gets the
 * focus. Returns true when the whole refusal is shown on fields, false when the form must also
 * show it as a form-level error.
 */
export function applyServerErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: readonly Path<T>[],
  codeFields: Readonly<Record<string, Path<T>>> = {},
): boolean {
  if (!(error instanceof ApiError)) return false;
  const problems = fieldProblems(error);
  const onFields = problems.flatMap((problem) => {
    const path = fields.find((field) => field === problem.path);
    return path ? [{ path, message: problem.message }] : [];
  });
  const byCode = error.code ? codeFields[error.code] : undefined;
  const targets: { path: Path<T>; message: string }[] = byCode
    ? [{ path: byCode, message: error.code ?? '' }]
    : onFields;
  targets.forEach((target, index) =>
    setError(
      target.path,
      { type: 'server', message: target.message },
      { shouldFocus: index === 0 },
    ),
  );
  if (byCode) return true;
  return onFields.length > 0 && onFields.length === problems.length;
}

/** Password refusals shown on the new password fields (each code is also a `validation` key). */
export const PASSWORD_CODE_FIELDS: Readonly<Record<string, 'password' | 'passwordConfirmation'>> = {
  password_must_differ: 'password',
  password_too_common: 'password',
  password_too_weak: 'password',
  passwords_do_not_match: 'passwordConfirmation',
};

/** Refusals of a typed one-time code: the code field is emptied to type (or ask for) another. */
const CODE_ERRORS = new Set(['wrong_code', 'code_expired', 'code_invalid', 'too_many_trials']);

export function isCodeError(error: unknown): boolean {
  return error instanceof ApiError && !!error.code && CODE_ERRORS.has(error.code);
}
