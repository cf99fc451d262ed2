import { z } from 'zod';
import { codeSchema } from './codes.js';
import { ASSURANCE_LEVELS, REQUIRED_LEVELS } from './levels.js';

// Classic zod: the server composes these (`.nullable()`, `.optional()`); the levels themselves,
// and what the login page reads of them, are levels.ts's (zod/mini).
export const assuranceLevelSchema = z.enum(ASSURANCE_LEVELS);
export const requiredLevelSchema = z.enum(REQUIRED_LEVELS);

/** A means that reaches a level: the authenticator app, a passkey, or an upstream provider. */
export const assuranceMeansSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('totp') }),
  z.object({ kind: z.literal('passkey') }),
  z.object({ kind: z.literal('provider'), id: z.string(), name: z.string() }),
]);
export type AssuranceMeans = z.infer<typeof assuranceMeansSchema>;

/** GET /api/me/assurance?level=…: the level to check the session against (optional). */
export const assuranceQuerySchema = z.object({ level: requiredLevelSchema.optional() });

/**
 * GET /api/me/assurance: the current session's level and methods, and the account area's minimum.
 * With `?level=`: whether the session reaches it, the user's means that reach it (`means`) and
 * those they could set up (`enrolment`).
 */
export const assuranceSchema = z.object({
  level: assuranceLevelSchema,
  /** The session's methods, RFC 8176 (as in the ID token's `amr`). */
  amr: z.array(z.string()),
  accountMinimum: requiredLevelSchema.nullable(),
  required: requiredLevelSchema.optional(),
  reached: z.boolean().optional(),
  means: z.array(assuranceMeansSchema).optional(),
  enrolment: z.array(assuranceMeansSchema).optional(),
});
export type Assurance = z.infer<typeof assuranceSchema>;

/** POST /api/me/assurance/totp: a code of the authenticator app raises the session. */
export const assuranceTotpInputSchema = z.object({ code: codeSchema });

/** POST /api/me/assurance/passkey: the WebAuthn assertion of the options just given. */
export const assurancePasskeyInputSchema = z.object({
  challengeId: z.string().min(1).max(64),
  response: z.record(z.string(), z.unknown()),
});

/**
 * The operator's mapping from recorded methods to levels: for each level, the sets of methods
 * that reach it (any one set suffices). A method is a recorded one (`pwd`, `otp` — a code by
 * e-mail —, `sms`, `totp`, `hwk`, `swk`, `user`, `ext`, `mfa` — two factors of different kinds)
 * or an upstream sign-in with its acr (`<provider>:<acr>`, e.g. `psc:eidas3`).
 */
export const assuranceMappingSchema = z.object({
  low: z.array(z.array(z.string().min(1).max(64)).min(1).max(8)).max(32),
  substantial: z.array(z.array(z.string().min(1).max(64)).min(1).max(8)).max(32),
  high: z.array(z.array(z.string().min(1).max(64)).min(1).max(8)).max(32),
});
export type AssuranceMapping = z.infer<typeof assuranceMappingSchema>;

/** GET and PUT /api/admin/settings/assurance. `mapping: null` (PUT): back to the default. */
export const assuranceSettingsSchema = z.object({
  accountMinimumLevel: requiredLevelSchema.nullable(),
  mapping: assuranceMappingSchema,
  /** The portal's default mapping, for the screen's "reset". */
  defaultMapping: assuranceMappingSchema,
});
export const assuranceSettingsInputSchema = z.object({
  accountMinimumLevel: requiredLevelSchema.nullable().optional(),
  mapping: assuranceMappingSchema.nullable().optional(),
});
