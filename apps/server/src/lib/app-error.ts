import type { ErrorCode } from '@hygie/domain';
import { statusOf } from '@hygie/domain';

/** An expected failure carrying a catalogue code; the error handler turns it into the envelope. */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    readonly data?: Record<string, unknown>,
    readonly headers?: Record<string, string>,
  ) {
    super(code);
    this.status = statusOf(code);
  }
}
