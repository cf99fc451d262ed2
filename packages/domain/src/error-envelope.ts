import { z } from 'zod';
import { ERROR_DATA } from './error-data.js';
import { ERROR_CODES, type ErrorCode } from './errors.js';

// Classic zod (the server's serialiser and OpenAPI document read it): the web's first screens
// read error responses through parseErrorData (error-data.ts, zod/mini), never through this.

function hasData(code: ErrorCode): code is keyof typeof ERROR_DATA {
  return Object.prototype.hasOwnProperty.call(ERROR_DATA, code);
}

/** The response of one code: `{ code, message }` and, for a code that carries it, its `data`. */
function envelopeOf(code: ErrorCode) {
  const base = { code: z.literal(code), message: z.string() };
  return hasData(code) ? z.strictObject({ ...base, data: ERROR_DATA[code] }) : z.strictObject(base);
}

function nonEmpty<T>(items: readonly T[]): [T, ...T[]] {
  const [first, ...rest] = items;
  if (first === undefined) throw new Error('the error catalogue is empty');
  return [first, ...rest];
}

/**
 * Every error response (architecture §4), one variant per code of the catalogue with that code's
 * `data`: the server's responses are serialised through it (a `data` the catalogue does not
 * declare fails there, in tests) and the OpenAPI document publishes it as `ErrorEnvelope`.
 */
export const errorEnvelopeSchema = z
  .discriminatedUnion('code', nonEmpty(ERROR_CODES.map(envelopeOf)))
  .meta({ id: 'ErrorEnvelope' });
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;
