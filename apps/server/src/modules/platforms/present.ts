import type { AdminPlatform, RequiredLevel, Service } from '@hygie/domain';
import { requiredLevelSchema } from '@hygie/domain';
import { canUsePlatform, nextUserAction } from './access.js';
import type { AccessStatus } from './access.js';
import type { PlatformRow } from './types.js';

/** A platform's minimum level of assurance (a stored value the portal does not know: none). */
export function minimumLevelOf(platform: Pick<PlatformRow, 'minimum_level'>): RequiredLevel | null {
  const parsed = requiredLevelSchema.safeParse(platform.minimum_level);
  return parsed.success ? parsed.data : null;
}

/** A JSON array of URIs from a platform row (a malformed value reads as none). */
export function parseUriList(json: string): string[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

/** A platform as admins see it (never its secret). */
export function presentAdminPlatform(row: PlatformRow): AdminPlatform {
  return {
    id: row.id,
    clientId: row.client_id,
    public: row.client_secret_hash === null,
    name: row.name,
    description: row.description,
    url: row.url,
    logoUrl: row.logo_url,
    redirectUris: parseUriList(row.redirect_uris),
    postLogoutRedirectUris: parseUriList(row.post_logout_redirect_uris),
    backchannelLogoutUri: row.backchannel_logout_uri,
    accessPolicy: row.access_policy,
    firstParty: row.first_party === 1,
    minimumLevel: minimumLevelOf(row),
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

/** A platform as a user sees it on "My services", with what the access rule lets them do. */
export function presentService(row: PlatformRow, status: AccessStatus | null): Service {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    url: row.url,
    logoUrl: row.logo_url,
    accessPolicy: row.access_policy,
    usable: canUsePlatform(row.access_policy, status),
    action: nextUserAction(row.access_policy, status),
  };
}
