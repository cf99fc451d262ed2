import * as z from 'zod/mini';

// The levels and what the sign-in's first screens read of them, apart from assurance.ts (classic
// zod, whose schemas the server extends): zod/mini, like every schema module the login page loads
// (docs/web.md).

/**
 * The levels of assurance of a sign-in, lowest first (docs/oidc.md, "Levels of assurance"):
 * one factor; password + a code by e-mail or SMS (`low`); a passkey or native key that verified
 * its user, password + authenticator app, Pro Santé Connect e-CPS, FranceConnect+ eidas2
 * (`substantial`); Pro Santé Connect with a CPS card, FranceConnect+ eidas3 (`high`).
 */
export const ASSURANCE_LEVELS = ['one_factor', 'low', 'substantial', 'high'] as const;
export type AssuranceLevel = (typeof ASSURANCE_LEVELS)[number];

/** The levels a platform, a request or the account area may require (one factor is no requirement). */
export const REQUIRED_LEVELS = ['low', 'substantial', 'high'] as const;
export type RequiredLevel = (typeof REQUIRED_LEVELS)[number];

/** Whether `level` is at least `required`. */
export function meetsLevel(level: AssuranceLevel, required: AssuranceLevel): boolean {
  return ASSURANCE_LEVELS.indexOf(level) >= ASSURANCE_LEVELS.indexOf(required);
}

/** The answer to a step-up: the session's level now. */
export const assuranceLevelResultSchema = z.object({ level: z.enum(ASSURANCE_LEVELS) });
