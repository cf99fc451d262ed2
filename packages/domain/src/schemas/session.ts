import * as z from 'zod/mini';
import { LANGUAGES } from '../constants.js';

// What the web's first screens parse (GET /api/me, GET /api/config): zod/mini, like every schema
// module the login page loads, so that classic zod stays off its first load (docs/web.md). The
// server reads the same schemas; `currentUserSchema` (api.ts) is the current user as a classic
// object, for the server, which extends it.

export const profileTypeSchema = z.enum(['patient', 'professional']);
export type ProfileType = z.infer<typeof profileTypeSchema>;
/**
 * `locked`: closed for safety (the owner's "not you?" link, or an admin), reopened by an admin.
 * `disabled`: switched off by an admin (the person left, the account is no longer wanted).
 */
export const accountStatusSchema = z.enum(['pending_validation', 'active', 'locked', 'disabled']);
export type AccountStatus = z.infer<typeof accountStatusSchema>;

/** The current user, as GET /api/me and a completed login return it. */
export const currentUserMiniSchema = z.object({
  type: z.literal('person'),
  id: z.string(),
  email: z.string(),
  emailVerified: z.boolean(),
  phone: z.nullable(z.string()),
  phoneVerified: z.boolean(),
  firstName: z.nullable(z.string()),
  lastName: z.nullable(z.string()),
  profile: z.nullable(profileTypeSchema),
  status: accountStatusSchema,
  roles: z.array(z.string()),
  language: z.enum(LANGUAGES),
  session: z.object({
    /** When the session ends if idle from now (never past the absolute expiry), ISO 8601. */
    expiresAt: z.string(),
    absoluteExpiresAt: z.string(),
  }),
});
export type CurrentUser = z.infer<typeof currentUserMiniSchema>;

/** The admin flag is computed from the user (spec §3). */
export function isAdmin(user: Pick<CurrentUser, 'roles'> | null | undefined): boolean {
  return !!user && user.roles.includes('admin');
}

/** GET /api/config: what the SPA needs to know before anything else. */
export const publicConfigSchema = z.object({
  release: z.string(),
  sentryDsn: z.nullable(z.string()),
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
  franceConnectPlus: z.optional(z.boolean()),
});
export type PublicConfig = z.infer<typeof publicConfigSchema>;
