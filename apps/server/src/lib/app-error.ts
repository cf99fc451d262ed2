import type { ErrorCode, ErrorData } from '@hygie/domain';
import { statusOf } from '@hygie/domain';

type Headers = Record<string, string>;

/** The constructor's arguments after the code: the code's `data` (typed by the catalogue), then headers. */
type DataArgs<C extends ErrorCode> = C extends ErrorCode
  ? ErrorData<C> extends undefined
    ? [data?: undefined, headers?: Headers]
    : undefined extends ErrorData<C>
      ? [data?: ErrorData<C>, headers?: Headers]
      : [data: ErrorData<C>, headers?: Headers]
  : never;

/**
 * An expected failure carrying a catalogue code; the error handler turns it into the envelope.
 * Its `data` has the type packages/domain gives that code (error-data.ts), so the server cannot
 * send a shape the web client does not read.
 */
export class AppError<C extends ErrorCode = ErrorCode> extends Error {
  readonly status: number;
  /** `ErrorData<C> | undefined`, or `ErrorData<C>` for a code whose data is required. */
  readonly data: DataArgs<C>[0];
  readonly headers: Headers | undefined;
  constructor(
    readonly code: C,
    ...[data, headers]: DataArgs<C>
  ) {
    super(code);
    this.status = statusOf(code);
    this.data = data;
    this.headers = headers;
  }
}

/** `instanceof` narrows to `AppError<any>`; this guard keeps `code` and `data` typed by the catalogue. */
export function isAppError(err: unknown): err is AppError {
  return err instanceof AppError;
}

/** A refusal to retry after `seconds`: its data and its Retry-After header say the same. */
export function retryLater(
  code: 'wait_before_retry' | 'too_many_attempts',
  seconds: number,
): AppError<'wait_before_retry' | 'too_many_attempts'> {
  const data = { retryAfterSeconds: seconds };
  const headers = { 'retry-after': String(seconds) };
  return code === 'wait_before_retry'
    ? new AppError(code, data, headers)
    : new AppError(code, data, headers);
}
