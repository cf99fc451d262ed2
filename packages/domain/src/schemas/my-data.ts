import { z } from 'zod';
import { profileSchema } from './account.js';

// "My data" (issue #15): everything the portal holds about the signed-in person, as one JSON file
// (GET /api/me/export), and the deletion of their own account (DELETE /api/me). Secrets never
// appear: no password hash, no code, no link or session token, no platform token.

const at = z.string();
const atOrNull = z.string().nullable();

/** GET /api/me/export — the person's data, section by section (docs/api.md lists what is left out). */
export const myDataSchema = z.object({
  /** This file's layout: raised when a section changes shape. */
  format: z.literal('hygie-my-data/1'),
  exportedAt: at,
  account: z.object({
    id: z.string(),
    type: z.string(),
    status: z.string(),
    roles: z.array(z.string()),
    createdAt: at,
    updatedAt: at,
    emailVerifiedAt: atOrNull,
    phoneVerifiedAt: atOrNull,
    /** Whether a password is set (never the password or its hash). */
    passwordSet: z.boolean(),
    passwordChangedAt: atOrNull,
    /** Invited: the password is to be created at the first sign-in. */
    mustCreatePassword: z.boolean(),
    /** Since when an authenticator app is a second factor (never its secret); null: none. */
    authenticatorAppEnabledAt: atOrNull.optional(),
    /** The terms version in force for this account. */
    termsVersion: z.string().nullable(),
    /** The birth date as stored (YYYY-MM-DD, 00 for an unknown day or month). */
    birthDate: z.string().nullable(),
  }),
  /** Identity traits, identifiers (INS, RPPS…), e-mail and phone with their states. */
  profile: profileSchema,
  /** Each acceptance of the terms of use. */
  termsAccepted: z.array(
    z.object({
      id: z.string(),
      version: z.string(),
      /** The language of the text accepted, and its SHA-256 (GET /api/cgu/versions/:version shows it). */
      language: z.string().nullable(),
      textHash: z.string().nullable(),
      acceptedAt: at,
      ip: z.string().nullable(),
    }),
  ),
  /** Portal sessions not yet purged (live, or expired awaiting the purge), by their metadata (never their token). */
  sessions: z.array(
    z.object({
      id: z.string(),
      stage: z.string(),
      createdAt: at,
      lastSeenAt: at,
      idleExpiresAt: at,
      absoluteExpiresAt: at,
      ip: z.string().nullable(),
      userAgent: z.string().nullable(),
      secondFactorAt: atOrNull,
      reauthenticatedAt: atOrNull,
      trustedDeviceId: z.string().nullable(),
      methods: z.array(z.string()),
      /** The upstream provider's level (`acr`) the session recorded, as `<provider>:<acr>`. */
      upstreamAcr: z.string().nullable(),
    }),
  ),
  /** Browsers trusted at the second factor, expired ones awaiting the purge included (never their token). */
  trustedDevices: z.array(
    z.object({
      id: z.string(),
      userAgent: z.string().nullable(),
      ip: z.string().nullable(),
      createdAt: at,
      lastUsedAt: at,
      expiresAt: at,
    }),
  ),
  /** The browsers the person signed in from (each named by a cookie it keeps, never exported). */
  knownBrowsers: z.array(z.object({ firstSeenAt: at, lastSeenAt: at })),
  /** The upstream identity providers' identities linked to the account (their subject ids). */
  identityLinks: z.array(
    z.object({ provider: z.string(), subject: z.string(), linkedAt: at, lastUsedAt: atOrNull }),
  ),
  /** Passkeys and the app's biometric keys, revoked ones included (never key material). */
  keys: z.array(
    z.object({
      id: z.string(),
      kind: z.enum(['webauthn', 'native']),
      deviceName: z.string(),
      transports: z.array(z.string()),
      userVerifying: z.boolean(),
      createdAt: at,
      lastUsedAt: atOrNull,
      revokedAt: atOrNull,
    }),
  ),
  /** The person's standing on each platform (access opened, asked for, cut). */
  platformAccess: z.array(
    z.object({
      platformId: z.string(),
      platform: z.string(),
      status: z.enum(['enabled', 'disabled', 'requested']),
      changedAt: at,
    }),
  ),
  /** What the person granted platforms (live grants). */
  platformConsents: z.array(
    z.object({
      clientId: z.string(),
      platform: z.string().nullable(),
      scopes: z.array(z.string()),
      grantedAt: atOrNull,
      expiresAt: atOrNull,
    }),
  ),
  /** Verification codes sent and not yet purged (never the code). */
  codes: z.array(
    z.object({
      id: z.string(),
      purpose: z.string(),
      destination: z.string(),
      attempts: z.number(),
      createdAt: at,
      expiresAt: at,
      consumedAt: atOrNull,
      supersededAt: atOrNull,
    }),
  ),
  /** Links e-mailed (first login, password reset, lock) and not yet purged (never the link). */
  links: z.array(
    z.object({
      id: z.string(),
      purpose: z.string(),
      createdAt: at,
      expiresAt: at,
      consumedAt: atOrNull,
    }),
  ),
  /** E-mails and SMS sent to the person's address or number (never their content's codes or links). */
  messages: z.array(
    z.object({
      id: z.string(),
      channel: z.string(),
      recipient: z.string(),
      template: z.string(),
      language: z.string(),
      brand: z.string(),
      status: z.string(),
      createdAt: at,
      sentAt: atOrNull,
    }),
  ),
  /**
   * The audit events about the person, newest first. Who acted: `you`, an `administrator`
   * (never named), or `system`; only the person's own acts carry an address and browser.
   */
  activity: z.array(
    z.object({
      id: z.string(),
      at,
      action: z.string(),
      by: z.enum(['you', 'administrator', 'system']),
      ip: z.string().nullable(),
      userAgent: z.string().nullable(),
      requestId: z.string().nullable(),
      details: z.record(z.string(), z.unknown()).nullable(),
    }),
  ),
});
export type MyData = z.infer<typeof myDataSchema>;

/**
 * DELETE /api/me — the step-up: the current password, or (without it) a second factor passed on
 * this session in the last 5 minutes.
 */
export const deleteAccountInputSchema = z.object({
  password: z.string().min(1, 'field_required').max(1024).optional(),
});
export type DeleteAccountInput = z.infer<typeof deleteAccountInputSchema>;
