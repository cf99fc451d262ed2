import { z } from 'zod';
import type { AuditAction } from '../audit.js';
import { assuranceLevelSchema } from './assurance.js';

/** A device as its user agent names it: browser and system, null when not recognised. */
export const deviceNameSchema = z.object({
  browser: z.string().nullable(),
  os: z.string().nullable(),
});
export type DeviceName = z.infer<typeof deviceNameSchema>;

/**
 * GET /api/me/sessions — one of my live portal sessions. No place: the portal has no geo-IP
 * database, so only the address is shown.
 */
export const mySessionSchema = z.object({
  id: z.string(),
  device: deviceNameSchema,
  ip: z.string().nullable(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  /** How the session was proven, as recorded (`pwd`, `otp`, `sms`, `totp`, `hwk`, `user`, `ext`). */
  methods: z.array(z.string()),
  /** The session's level of assurance (docs/oidc.md). */
  level: assuranceLevelSchema,
  /** Every sign-in stage passed (else it waits for a second factor, the terms…). */
  complete: z.boolean(),
  /** The session of the request itself. */
  current: z.boolean(),
});
export const mySessionListSchema = z.array(mySessionSchema);
export type MySession = z.infer<typeof mySessionSchema>;

/** POST /api/me/sessions/end-others */
export const endedSessionsSchema = z.object({ ended: z.number().int() });

/**
 * The audit actions a person sees in their own activity: sign-ins, second factors, password and
 * channel changes, browsers and keys, platforms, and what an administrator did to the account.
 */
export const MY_ACTIVITY_ACTIONS = [
  'login',
  'login_biometric',
  'login_identity_provider',
  'identity_linked',
  'identity_link_refused',
  'identity_unlinked',
  'login_failed',
  'second_factor_failed',
  'second_factor_passed',
  'reauthenticated',
  'totp_enrolment_started',
  'totp_enabled',
  'totp_removed',
  'password_changed',
  'password_expired',
  'password_renewed',
  'password_reset',
  'first_password_created',
  'email_changed',
  'phone_changed',
  'account_locked_by_user',
  'trusted_device_added',
  'trusted_device_revoked',
  'biometric_enrolled',
  'biometric_invalidated',
  'biometric_revoked',
  'platform_enabled_by_user',
  'platform_access_requested',
  'oidc_consent_given',
  'oidc_consent_refused',
  'oidc_grant_revoked',
  'refresh_token_reused',
  'account_validated',
  'account_locked',
  'account_unlocked',
  'account_disabled',
  'account_enabled',
  'sessions_ended',
  'password_reset_sent',
  'role_changed',
  'platform_access_enabled',
  'platform_access_disabled',
] as const satisfies readonly AuditAction[];
export type MyActivityAction = (typeof MY_ACTIVITY_ACTIONS)[number];

/** GET /api/me/activity: newest first, a page at a time (keyset). */
export const myActivityQuerySchema = z.object({
  /** The `nextCursor` of the previous page: the events before it. */
  before: z
    .string()
    .regex(/^\d{1,15}\.[\w-]{1,64}$/)
    .optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export type MyActivityQuery = z.infer<typeof myActivityQuerySchema>;

/** One event of my activity, without the trail's internal fields (actor ids, request ids). */
export const myActivityEventSchema = z.object({
  id: z.string(),
  at: z.string(),
  action: z.enum(MY_ACTIVITY_ACTIONS),
  /** Who acted: me, an administrator, or nobody known (a failed sign-in, a platform). */
  by: z.enum(['me', 'administrator', 'nobody']),
  /** The address and device of the request (never an administrator's). */
  ip: z.string().nullable(),
  device: deviceNameSchema.nullable(),
  /** Codes only: why, by which channel, which platform (its name), which scopes. */
  details: z.object({
    reason: z.string().optional(),
    channel: z.string().optional(),
    method: z.string().optional(),
    kind: z.string().optional(),
    role: z.string().optional(),
    platform: z.string().optional(),
    scopes: z.array(z.string()).optional(),
  }),
});
export type MyActivityEvent = z.infer<typeof myActivityEventSchema>;

export const myActivityPageSchema = z.object({
  items: z.array(myActivityEventSchema),
  nextCursor: z.string().nullable(),
});
export type MyActivityPage = z.infer<typeof myActivityPageSchema>;

/** GET /api/me/consents — what I let platforms have (live grants). */
export const myConsentSchema = z.object({
  clientId: z.string(),
  /** The platform's name; null when it was deleted since. */
  platform: z.string().nullable(),
  scopes: z.array(z.string()),
  grantedAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
});
export const myConsentListSchema = z.array(myConsentSchema);
export type MyConsent = z.infer<typeof myConsentSchema>;

/** GET /api/me/identity-links: the account's links with upstream identity providers. */
export const identityLinksSchema = z.object({
  links: z.array(
    z.object({
      /** The provider's id (`psc`, `franceconnect`, or a configured third one). */
      provider: z.string(),
      linkedAt: z.number().int(),
      lastUsedAt: z.number().int().nullable(),
    }),
  ),
});
export type IdentityLinks = z.infer<typeof identityLinksSchema>;
