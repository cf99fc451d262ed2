import * as z from 'zod/mini';
import type { ErrorCode } from './errors.js';
import { VALIDATION_MESSAGES } from './schemas/validation-messages.js';
import { REQUIRED_LEVELS } from './schemas/levels.js';
import { mfaDataSchema } from './schemas/codes.js';

/** `data` of the codes that say how long to wait (the server also sends `Retry-After`). */
export const retryAfterDataSchema = z.object({
  retryAfterSeconds: z.number().check(z.int(), z.nonnegative()),
});

/**
 * One invalid field of a `validation_error`: its path, the message key of the failed rule (a
 * VALIDATION_MESSAGES key, which the web translates) and, in the server's answers, `text`: that
 * message in the request's language, for API clients.
 */
export const fieldErrorSchema = z.object({
  path: z
    .string()
    .check(z.describe('The field, dotted ("identifier.value"); empty for the whole body.')),
  // Read as a plain string: a client meeting a key it does not know yet shows its generic text.
  message: z
    .string()
    .check(z.describe(`The key of the failed rule, one of: ${VALIDATION_MESSAGES.join(', ')}.`)),
  text: z.optional(z.string()).check(z.describe('The message in the request’s language (`?l=`).')),
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
  too_many_attempts: z.optional(retryAfterDataSchema),
  too_many_requests: z.optional(retryAfterDataSchema),
  wait_before_retry: retryAfterDataSchema,
  code_already_sent: retryAfterDataSchema,
  wrong_code: z.object({ remainingAttempts: z.number().check(z.int(), z.nonnegative()) }),
  validation_error: z.object({ fields: z.array(fieldErrorSchema) }),
  assurance_level_required: z.object({ level: z.enum(REQUIRED_LEVELS) }),
  /** The method the mapping names that the portal does not record. */
  assurance_mapping_invalid: z.object({ method: z.string() }),
  settings_update_failed: z.object({
    key: z.string(),
    min: z.optional(z.number()),
    max: z.optional(z.number()),
    nullable: z.optional(z.boolean()),
  }),
} as const satisfies Partial<Record<ErrorCode, z.ZodMiniType>>;

type DataCode = keyof typeof ERROR_DATA;

/** Every code's `data`: `undefined` for the codes that carry none. */
type ErrorDataOf = {
  [C in ErrorCode]: C extends DataCode ? z.infer<(typeof ERROR_DATA)[C]> : undefined;
};

/** The type of `data` for a code: `undefined` for the codes that carry none. */
export type ErrorData<C extends ErrorCode> = ErrorDataOf[C];

/** ERROR_DATA seen per code, so that the schema of a code `C` outputs `ErrorData<C>`. */
const SCHEMA_OF: { [C in ErrorCode]?: z.ZodMiniType<ErrorDataOf[C]> } = ERROR_DATA;

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
