import { z } from 'zod';
import type { ErrorCode } from './errors.js';
import { ERROR_CODES } from './errors.js';
import { VALIDATION_MESSAGES } from './schemas/validation-messages.js';
import { requiredLevelSchema } from './schemas/assurance.js';
import { mfaDataSchema } from './schemas/codes.js';

/** `data` of the codes that say how long to wait (the server also sends `Retry-After`). */
export const retryAfterDataSchema = z.object({ retryAfterSeconds: z.number().int().nonnegative() });

/**
 * One invalid field of a `validation_error`: its path, the message key of the failed rule (a
 * VALIDATION_MESSAGES key, which the web translates) and, in the server's answers, `text`: that
 * message in the request's language, for API clients.
 */
export const fieldErrorSchema = z.object({
  path: z.string().describe('The field, dotted ("identifier.value"); empty for the whole body.'),
  // Read as a plain string: a client meeting a key it does not know yet shows its generic text.
  message: z
    .string()
    .describe(`The key of the failed rule, one of: ${VALIDATION_MESSAGES.join(', ')}.`),
  text: z.string().optional().describe('The message in the request’s language (`?l=`).'),
});
export type FieldError = z.infer<typeof fieldErrorSchema>;

/**
 * The `data` each error code carries, as the server sends it and the web reads it: one schema per
 * code. A code absent here carries no data. Optional schemas are codes sent with and without it.
 */
export const ERROR_DATA = {
  two_factor_authentication_required: mfaDataSchema,
  second_factor_required: mfaDataSchema,
  account_locked: z.object({ contactEmail: z.string() }),
  account_disabled: z.object({ contactEmail: z.string() }),
  too_many_attempts: retryAfterDataSchema.optional(),
  too_many_requests: retryAfterDataSchema.optional(),
  wait_before_retry: retryAfterDataSchema,
  code_already_sent: retryAfterDataSchema,
  wrong_code: z.object({ remainingAttempts: z.number().int().nonnegative() }),
  validation_error: z.object({ fields: z.array(fieldErrorSchema) }),
  assurance_level_required: z.object({ level: requiredLevelSchema }),
  /** The method the mapping names that the portal does not record. */
  assurance_mapping_invalid: z.object({ method: z.string() }),
  settings_update_failed: z.object({
    key: z.string(),
    min: z.number().optional(),
    max: z.number().optional(),
    nullable: z.boolean().optional(),
  }),
} as const satisfies Partial<Record<ErrorCode, z.ZodType>>;

type DataCode = keyof typeof ERROR_DATA;

/** Every code's `data`: `undefined` for the codes that carry none. */
type ErrorDataOf = {
  [C in ErrorCode]: C extends DataCode ? z.infer<(typeof ERROR_DATA)[C]> : undefined;
};

/** The type of `data` for a code: `undefined` for the codes that carry none. */
export type ErrorData<C extends ErrorCode> = ErrorDataOf[C];

/** ERROR_DATA seen per code, so that the schema of a code `C` outputs `ErrorData<C>`. */
const SCHEMA_OF: { [C in ErrorCode]?: z.ZodType<ErrorDataOf[C]> } = ERROR_DATA;

/**
 * The `data` of a response carrying `code`, checked against the catalogue: undefined when the code
 * carries none or the payload does not match (a client never reads an unchecked field).
 */
export function parseErrorData<C extends ErrorCode>(
  code: C,
  data: unknown,
): ErrorData<C> | undefined {
  const schema = Object.prototype.hasOwnProperty.call(SCHEMA_OF, code)
    ? SCHEMA_OF[code]
    : undefined;
  const parsed = schema?.safeParse(data);
  return parsed?.success ? parsed.data : undefined;
}

function hasData(code: ErrorCode): code is DataCode {
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
