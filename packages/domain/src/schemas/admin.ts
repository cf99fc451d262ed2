import { z } from 'zod';
import { profileSchema } from './account.js';
import { accountStatusSchema } from './session.js';
import { biometricCredentialSchema } from './biometrics.js';
import { emailSchema, firstNameSchema, lastNameSchema } from './fields.js';

// Administration (spec §2 "Settings", "Disable access to a platform"; admin issue).

/** Settings an admin edits; durations are seconds (PASSWORD_EXPIRATION_DELAY null = disabled). */
export const SETTING_KEYS = [
  'PASSWORD_EXPIRATION_DELAY',
  'TRUSTED_DEVICE_DAYS',
  'SESSION_IDLE_TIMEOUT',
  'SESSION_ABSOLUTE_TIMEOUT',
  'CODE_TTL',
  'AUDIT_RETENTION',
] as const;
export type SettingKey = (typeof SETTING_KEYS)[number];

export const settingSchema = z.object({
  key: z.enum(SETTING_KEYS),
  value: z.number().int().nullable(),
  defaultValue: z.number().int().nullable(),
  /** Unit of `value`: seconds, or days for TRUSTED_DEVICE_DAYS. */
  unit: z.enum(['seconds', 'days']),
  min: z.number().int(),
  max: z.number().int(),
  nullable: z.boolean(),
  updatedAt: z.string().nullable(),
  updatedBy: z.string().nullable(),
});
export const settingListSchema = z.array(settingSchema);
export type Setting = z.infer<typeof settingSchema>;

/** PUT /api/admin/settings/:key — null disables (PASSWORD_EXPIRATION_DELAY only). */
export const settingUpdateSchema = z.object({ value: z.number().int().nullable() });

/** Duration units the settings screen offers (spec §3). */
export const DURATION_UNITS = {
  years: 365 * 24 * 3600,
  months: 30 * 24 * 3600,
  days: 24 * 3600,
  hours: 3600,
  minutes: 60,
  seconds: 1,
} as const;
export type DurationUnit = keyof typeof DURATION_UNITS;

/** True when `unit` names one of DURATION_UNITS. */
export function isDurationUnit(unit: unknown): unit is DurationUnit {
  return typeof unit === 'string' && Object.prototype.hasOwnProperty.call(DURATION_UNITS, unit);
}
/** The names of DURATION_UNITS, in its order (largest first). */
export const DURATION_UNIT_NAMES: readonly DurationUnit[] =
  Object.keys(DURATION_UNITS).filter(isDurationUnit);

/** The largest unit that divides a number of seconds exactly (for display). */
export function splitDuration(seconds: number): { amount: number; unit: DurationUnit } {
  for (const unit of DURATION_UNIT_NAMES) {
    const size = DURATION_UNITS[unit];
    if (seconds % size === 0 && seconds >= size) return { amount: seconds / size, unit };
  }
  return { amount: seconds, unit: 'seconds' };
}

/**
 * GET /api/admin/users?q=&status=&role=&type=&cursor=&pageSize= (keyset pages). The order follows
 * what `q` is: no query, newest first; a name, by name ("last first"); an e-mail (with `@`, or a
 * name that matches nobody), by e-mail; a phone number or identifier, the exact matches then by id.
 */
export const userSearchQuerySchema = z.object({
  q: z.string().trim().max(180).default(''),
  status: z.optional(accountStatusSchema),
  /** Only admins (`admin`) or only other users (`user`). */
  role: z.enum(['admin', 'user']).optional(),
  /** Patients, professionals, or accounts with no profile yet (`none`). */
  type: z.enum(['patient', 'professional', 'none']).optional(),
  /** The `nextCursor` of the previous page, as given (opaque; only for the same `q` and filters). */
  cursor: z.string().max(600).optional(),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});

export const adminUserSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  type: z.enum(['patient', 'professional']).nullable(),
  status: accountStatusSchema,
  identifier: z.string().nullable(),
  createdAt: z.string(),
  platforms: z.array(
    z.object({
      platformId: z.string(),
      name: z.string(),
      usable: z.boolean(),
      status: z.enum(['enabled', 'disabled', 'requested']).nullable(),
    }),
  ),
});
export const userSearchResultSchema = z.object({
  items: z.array(adminUserSchema),
  pageSize: z.number().int(),
  /** The next page's cursor; null on the last page. */
  nextCursor: z.string().nullable(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

/** One audit event, as the admin area shows it (details are never personal data). */
export const adminAuditEventSchema = z.object({
  id: z.string(),
  at: z.string(),
  action: z.string(),
  actorId: z.string().nullable(),
  targetId: z.string().nullable(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  requestId: z.string().nullable(),
  details: z.record(z.string(), z.unknown()).nullable(),
});
export type AdminAuditEvent = z.infer<typeof adminAuditEventSchema>;

/** A moment as the audit filters take it: a day (UTC) or an instant (ISO 8601). */
const auditMomentSchema = z.union([z.iso.date(), z.iso.datetime({ offset: true })]);

/** GET /api/admin/audit and /api/admin/audit/export: newest first, filtered, a page at a time. */
export const auditQuerySchema = z.object({
  /** The user the events are about (their id). */
  user: z.string().min(1).max(64).optional(),
  /** One action, e.g. `login_failed`. */
  type: z
    .string()
    .regex(/^[a-z][a-z0-9_]{0,63}$/)
    .optional(),
  /** From this day (its start) or instant, included. */
  from: auditMomentSchema.optional(),
  /** To this day (its end) or instant, included. */
  to: auditMomentSchema.optional(),
  /** The `nextCursor` of the previous page. */
  cursor: z
    .string()
    .regex(/^\d{1,15}\.[\w-]{1,64}$/)
    .optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;

export const auditPageSchema = z.object({
  items: z.array(adminAuditEventSchema),
  nextCursor: z.string().nullable(),
});
export type AuditPage = z.infer<typeof auditPageSchema>;

/** GET /api/admin/users/:id: one user in detail, for an operator. */
export const adminUserDetailSchema = z.object({
  /** Identity, identifiers and contact channels with their states (as the profile shows them). */
  profile: profileSchema,
  roles: z.array(z.string()),
  createdAt: z.string(),
  lastSignInAt: z.string().nullable(),
  passwordChangedAt: z.string().nullable(),
  /** Invited, the first-login link not yet used: `resend-invitation` applies. */
  invitationPending: z.boolean(),
  sessions: z.array(
    z.object({
      id: z.string(),
      createdAt: z.string(),
      lastSeenAt: z.string(),
      ip: z.string().nullable(),
      label: z.string(),
      /** Every sign-in stage passed (else the session waits for a second factor, terms…). */
      complete: z.boolean(),
      methods: z.array(z.string()),
    }),
  ),
  trustedDevices: z.array(
    z.object({
      id: z.string(),
      label: z.string(),
      ip: z.string().nullable(),
      createdAt: z.string(),
      lastUsed: z.string(),
      expiresAt: z.string(),
    }),
  ),
  keys: z.array(biometricCredentialSchema),
  platforms: adminUserSchema.shape.platforms,
  /** What the user granted to platforms through the OpenID Connect provider (live grants). */
  consents: z.array(
    z.object({
      clientId: z.string(),
      platform: z.string().nullable(),
      scopes: z.array(z.string()),
      grantedAt: z.string().nullable(),
      expiresAt: z.string().nullable(),
    }),
  ),
  /** The last events about this user, newest first. */
  events: z.array(adminAuditEventSchema),
});
export type AdminUserDetail = z.infer<typeof adminUserDetailSchema>;

/** POST /api/admin/users/:id/set-role */
export const roleInputSchema = z.object({ role: z.enum(['admin', 'user']) });

/** The admin actions on one user (POST /api/admin/users/:id/<action>). */
export const USER_ACTIONS = [
  'lock',
  'unlock',
  'disable',
  'enable',
  'end-sessions',
  'send-password-reset',
  'resend-invitation',
] as const;
export type UserAction = (typeof USER_ACTIONS)[number];

/** PUT /api/admin/users/:id/platforms/:platformId */
export const platformAccessUpdateSchema = z.object({ enabled: z.boolean() });

/** POST /api/admin/invitations */
export const invitationInputSchema = z.object({
  email: emailSchema,
  firstName: firstNameSchema.optional(),
  lastName: lastNameSchema.optional(),
  profile: z.enum(['patient', 'professional']).nullable().optional(),
  admin: z.boolean().optional(),
});
export const invitationResultSchema = z.object({ userId: z.string() });

/** The outbox's message states (docs/operations.md). */
export const messageStatusSchema = z.enum(['pending', 'sent', 'failed', 'expired']);
export type MessageStatus = z.infer<typeof messageStatusSchema>;

/** GET /api/admin/messages: newest first, by status and channel, a page at a time (keyset). */
export const messageQuerySchema = z.object({
  status: messageStatusSchema.optional(),
  channel: z.enum(['email', 'sms', 'logout']).optional(),
  /** The `nextCursor` of the previous page. */
  cursor: z
    .string()
    .regex(/^\d{1,15}\.[\w-]{1,64}$/)
    .optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});

/** One outbox message as an operator sees it: never its content, its code or its link. */
export const adminMessageSchema = z.object({
  id: z.string(),
  channel: z.enum(['email', 'sms', 'logout']),
  /** Masked for people (`j***@example.fr`, `+33 6 ** ** ** 78`); a platform's client id. */
  recipient: z.string(),
  template: z.string(),
  status: messageStatusSchema,
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  /** A failed message without a code or link can be sent again. */
  retryable: z.boolean(),
});
export type AdminMessage = z.infer<typeof adminMessageSchema>;

export const adminMessageListSchema = z.object({
  items: z.array(adminMessageSchema),
  nextCursor: z.string().nullable(),
});
export type AdminMessageList = z.infer<typeof adminMessageListSchema>;
