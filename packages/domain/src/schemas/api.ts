import { z } from 'zod';
import { LIMITS, LANGUAGES } from '../constants.js';

export { errorEnvelopeSchema } from '../error-data.js';
export type { ErrorEnvelope } from '../error-data.js';

/** POST /api/login. `username` is an e-mail, a mobile phone, an INS or an RPPS. */
export const loginInputSchema = z.object({
  username: z.string().trim().min(1).max(LIMITS.usernameMax),
  password: z.string().min(1).max(LIMITS.passwordMax),
  trustDevice: z.boolean().optional(),
});
export type LoginInput = z.infer<typeof loginInputSchema>;

export const profileTypeSchema = z.enum(['patient', 'professional']);
export type ProfileType = z.infer<typeof profileTypeSchema>;
/**
 * `locked`: closed for safety (the owner's "not you?" link, or an admin), reopened by an admin.
 * `disabled`: switched off by an admin (the person left, the account is no longer wanted).
 */
export const accountStatusSchema = z.enum(['pending_validation', 'active', 'locked', 'disabled']);
export type AccountStatus = z.infer<typeof accountStatusSchema>;

/** The current user, as GET /api/me and a completed login return it. */
export const currentUserSchema = z.object({
  type: z.literal('person'),
  id: z.string(),
  email: z.string(),
  emailVerified: z.boolean(),
  phone: z.string().nullable(),
  phoneVerified: z.boolean(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  profile: profileTypeSchema.nullable(),
  status: accountStatusSchema,
  roles: z.array(z.string()),
  language: z.enum(LANGUAGES),
  session: z.object({
    /** When the session ends if idle from now (never past the absolute expiry), ISO 8601. */
    expiresAt: z.string(),
    absoluteExpiresAt: z.string(),
  }),
});
export type CurrentUser = z.infer<typeof currentUserSchema>;

/** The admin flag is computed from the user (spec §3). */
export function isAdmin(user: Pick<CurrentUser, 'roles'> | null | undefined): boolean {
  return !!user && user.roles.includes('admin');
}

/** GET /api/config: what the SPA needs to know before anything else. */
export const publicConfigSchema = z.object({
  release: z.string(),
  sentryDsn: z.string().nullable(),
  sentryEnvironment: z.string(),
  xsrfCookieName: z.string(),
  contactEmail: z.string(),
  sessionWarningSeconds: z.number(),
  /** The upstream identity providers one may sign in with (docs/identity-providers.md). */
  identityProviders: z.array(z.string()),
  /**
   * FranceConnect is asked for eidas2 or more only (FranceConnect+): its button is the
   * FranceConnect+ variant. Absent: false.
   */
  franceConnectPlus: z.boolean().optional(),
});
export type PublicConfig = z.infer<typeof publicConfigSchema>;

/** GET /api/health and /api/ready. */
export const healthSchema = z.object({ status: z.enum(['ok', 'unavailable']) });
