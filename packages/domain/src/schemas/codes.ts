import * as z from 'zod/mini';
import { CODES } from '../constants.js';

// The one-time code and the second factors, apart from security.ts (whose field validators pull
// the phone metadata): the error catalogue and the sign-in's first screens need only these.
// zod/mini, like every schema module the login page loads (docs/web.md).

/** A one-time code as typed: 6 digits (spaces ignored). */
export const codeSchema = z.pipe(
  z.pipe(
    z.string({ error: 'field_required' }),
    z.transform((v: string) => v.replace(/\s+/g, '')),
  ),
  z.string().check(z.regex(new RegExp(`^\\d{${CODES.length}}$`), 'code_format')),
);

/**
 * The second factors: a code by e-mail or SMS, one of the authenticator app (TOTP), or one of the
 * account's recovery codes.
 */
export const mfaProviderSchema = z.enum(['totp', 'email', 'sms', 'recovery_code']);
export type MfaProvider = z.infer<typeof mfaProviderSchema>;
/** The second factors whose code has 6 digits. */
export const digitCodeProviderSchema = z.enum(['totp', 'email', 'sms']);
export type DigitCodeProvider = z.infer<typeof digitCodeProviderSchema>;
/** The second factors whose code the portal sends. */
export const sentCodeProviderSchema = z.enum(['email', 'sms']);
export type SentCodeProvider = z.infer<typeof sentCodeProviderSchema>;

/** `data` of 401 two_factor_authentication_required (spec §3 "MFA data"). */
export const mfaDataSchema = z.object({
  user_identifier: z.string(),
  two_factor_providers: z.array(mfaProviderSchema),
  email_hint: z.string(),
  sms_hint: z.nullable(z.string()),
  sms_enabled: z.boolean(),
  /**
   * Why SMS is not offered, so the user is told the truth: no mobile number on the account, or a
   * number not verified yet; null when SMS is offered (absent from older servers).
   */
  sms_unavailable: z.optional(z.nullable(z.enum(['no_phone', 'phone_unverified']))),
});
export type MfaData = z.infer<typeof mfaDataSchema>;
