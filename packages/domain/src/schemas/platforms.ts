import { z } from 'zod';
import { requiredLevelSchema } from './assurance.js';

/** Who may use a platform: everyone, users who enable it themselves, or users an admin lets in. */
export const accessPolicySchema = z.enum(['open', 'on_request', 'admin']);
export type AccessPolicy = z.infer<typeof accessPolicySchema>;

/** What a user may do about a platform (the access rule's `nextUserAction`). */
export const serviceActionSchema = z.enum(['open', 'enable', 'request', 'pending', 'none']);
export type ServiceAction = z.infer<typeof serviceActionSchema>;

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * True for an absolute https URL, or http on a loopback address (a platform in development), with
 * no credentials and no fragment — the shape of a redirect URI the provider compares exactly.
 */
export function isAllowedPlatformUri(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.username || url.password || url.hash || value.includes('#')) return false;
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && LOOPBACK.has(url.hostname);
}

const platformUri = z
  .string()
  .trim()
  .max(500)
  .refine(isAllowedPlatformUri, 'https URL (http only on localhost), without fragment');
const uriList = z.array(platformUri).max(20);

/** POST /api/admin/platforms. `public: true` makes a public client (no secret, PKCE only). */
export const platformCreateInputSchema = z.object({
  name: z.string().trim().min(1).max(100),
  description: z.string().trim().max(500).nullable().optional(),
  url: platformUri,
  logoUrl: platformUri.nullable().optional(),
  redirectUris: uriList.min(1),
  postLogoutRedirectUris: uriList.optional(),
  /** Where the platform takes OpenID back-channel logout notices (docs/oidc.md). */
  backchannelLogoutUri: platformUri.nullable().optional(),
  accessPolicy: accessPolicySchema.optional(),
  firstParty: z.boolean().optional(),
  public: z.boolean().optional(),
  /** The lowest level of assurance a sign-in needs (docs/oidc.md); null or absent: none. */
  minimumLevel: requiredLevelSchema.nullable().optional(),
});
export type PlatformCreateInput = z.infer<typeof platformCreateInputSchema>;

/** PATCH /api/admin/platforms/{id}: any subset; the client type and secret do not change here. */
export const platformUpdateInputSchema = platformCreateInputSchema.omit({ public: true }).partial();
export type PlatformUpdateInput = z.infer<typeof platformUpdateInputSchema>;

/** A platform as admins see it. */
export const adminPlatformSchema = z.object({
  id: z.string(),
  clientId: z.string(),
  public: z.boolean(),
  name: z.string(),
  description: z.string().nullable(),
  url: z.string(),
  logoUrl: z.string().nullable(),
  redirectUris: z.array(z.string()),
  postLogoutRedirectUris: z.array(z.string()),
  backchannelLogoutUri: z.string().nullable(),
  accessPolicy: accessPolicySchema,
  firstParty: z.boolean(),
  minimumLevel: requiredLevelSchema.nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type AdminPlatform = z.infer<typeof adminPlatformSchema>;

export const adminPlatformListSchema = z.object({ platforms: z.array(adminPlatformSchema) });
export type AdminPlatformList = z.infer<typeof adminPlatformListSchema>;

/** The answer to a creation: the client secret is shown this once (null for a public client). */
export const createdPlatformSchema = adminPlatformSchema.extend({
  clientSecret: z.string().nullable(),
});
export type CreatedPlatform = z.infer<typeof createdPlatformSchema>;

/** A platform as a signed-in user sees it on "My services". */
export const serviceSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  url: z.string(),
  logoUrl: z.string().nullable(),
  accessPolicy: accessPolicySchema,
  /** The user may sign in to it now. */
  usable: z.boolean(),
  action: serviceActionSchema,
});
export type Service = z.infer<typeof serviceSchema>;

/** GET /api/services. */
export const serviceListSchema = z.object({ services: z.array(serviceSchema) });
export type ServiceList = z.infer<typeof serviceListSchema>;

/**
 * The answer to an access change (admin: PUT /api/admin/users/{id}/platforms/{platformId}, body
 * `platformAccessUpdateSchema`) or to a service enabled or requested (user).
 */
export const platformAccessSchema = z.object({
  platformId: z.string(),
  userId: z.string(),
  /** null: no decision recorded (an open platform nobody restricted). */
  status: z.enum(['enabled', 'disabled', 'requested']).nullable(),
  usable: z.boolean(),
  action: serviceActionSchema,
});
export type PlatformAccess = z.infer<typeof platformAccessSchema>;

/**
 * What the portal's error page may say of the platform a sign-in came from (GET
 * /api/platforms/by-client/{clientId}): its registered name and address, never taken from the
 * error page's own address, which anyone can write.
 */
export const platformNameSchema = z.object({ name: z.string(), url: z.string() });
export type PlatformName = z.infer<typeof platformNameSchema>;

/** The provider's signing keys as admins see them (GET /api/admin/oidc/keys): never the keys. */
export const signingKeyListSchema = z.object({
  keys: z.array(z.object({ kid: z.string(), alg: z.string(), signing: z.boolean() })),
});
export type SigningKeyList = z.infer<typeof signingKeyListSchema>;

/**
 * POST /api/admin/oidc/keys/rotate: `stage` publishes a new key, `promote` makes it sign,
 * `retire` drops the older keys (docs/oidc.md, "Key rotation").
 */
export const signingKeyRotationSchema = z.object({ step: z.enum(['stage', 'promote', 'retire']) });
export type SigningKeyRotation = z.infer<typeof signingKeyRotationSchema>;
