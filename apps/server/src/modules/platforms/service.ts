import type {
  AdminPlatform,
  AdminUser,
  CreatedPlatform,
  PlatformAccess,
  PlatformCreateInput,
  PlatformUpdateInput,
  Service,
  PlatformName,
} from '@hygie/domain';
import { together, transaction } from '../../db/transaction.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../lib/app-error.js';
import { newId } from '../../lib/ids.js';
import { hashToken, randomToken } from '../../lib/tokens.js';
import { recordAudit } from '../audit/service.js';
import { findUserById } from '../users/service.js';
import type { AccessStatus } from './access.js';
import { canUsePlatform, nextUserAction } from './access.js';
import { parseUriList, presentAdminPlatform, presentService } from './present.js';
export { minimumLevelOf } from './present.js';
import {
  accessOf,
  accessRowsOfUser,
  accessRowsOfUsers,
  deletePlatformRow,
  findPlatformByClientId,
  findPlatformById,
  insertPlatform,
  listPlatforms,
  setAccess,
  updatePlatformRow,
} from './repository.js';
import type { PlatformRow } from './types.js';

/** Who acts, for the audit trail (null: an operator at the command line). */
export interface Actor {
  userId: string | null;
  ip: string | null;
}

/**
 * A client secret: 256 random bits. Only its SHA-256 is stored — enough for a secret this long
 * (nothing to brute-force), and cheap to check on every token request.
 */
export function newClientSecret(): { secret: string; hash: string } {
  const secret = randomToken(32);
  return { secret, hash: hashToken(secret) };
}

export async function listAdminPlatforms(ctx: AppContext): Promise<AdminPlatform[]> {
  return (await listPlatforms(ctx.db)).map(presentAdminPlatform);
}

export async function getAdminPlatform(ctx: AppContext, id: string): Promise<AdminPlatform> {
  const row = await findPlatformById(ctx.db, id);
  if (!row) throw new AppError('not_found');
  return presentAdminPlatform(row);
}

/** Registers a platform as an OIDC client; the answer carries the secret, shown this once. */
export async function createPlatform(
  ctx: AppContext,
  input: PlatformCreateInput,
  actor: Actor,
): Promise<CreatedPlatform> {
  const now = ctx.clock.now();
  const credentials = input.public ? null : newClientSecret();
  const row: PlatformRow = {
    id: newId(),
    client_id: randomToken(18),
    client_secret_hash: credentials?.hash ?? null,
    name: input.name,
    description: input.description ?? null,
    url: input.url,
    logo_url: input.logoUrl ?? null,
    redirect_uris: JSON.stringify(unique(input.redirectUris)),
    post_logout_redirect_uris: JSON.stringify(unique(input.postLogoutRedirectUris ?? [])),
    backchannel_logout_uri: input.backchannelLogoutUri ?? null,
    access_policy: input.accessPolicy ?? 'open',
    first_party: input.firstParty === false ? 0 : 1,
    minimum_level: input.minimumLevel ?? null,
    created_at: now,
    updated_at: now,
  };
  await transaction(ctx.db, async (trx) => {
    await insertPlatform(trx, row);
    await recordAudit(trx, ctx.clock, {
      action: 'platform_created',
      actorId: actor.userId,
      targetId: row.id,
      ip: actor.ip,
      details: {
        name: row.name,
        clientId: row.client_id,
        public: credentials === null,
        minimumLevel: row.minimum_level,
      },
    });
  });
  return { ...presentAdminPlatform(row), clientSecret: credentials?.secret ?? null };
}

export async function updatePlatform(
  ctx: AppContext,
  id: string,
  input: PlatformUpdateInput,
  actor: Actor,
): Promise<AdminPlatform> {
  const changes: Partial<PlatformRow> = { updated_at: ctx.clock.now() };
  if (input.name !== undefined) changes.name = input.name;
  if (input.description !== undefined) changes.description = input.description;
  if (input.url !== undefined) changes.url = input.url;
  if (input.logoUrl !== undefined) changes.logo_url = input.logoUrl;
  if (input.redirectUris !== undefined)
    changes.redirect_uris = JSON.stringify(unique(input.redirectUris));
  if (input.postLogoutRedirectUris !== undefined)
    changes.post_logout_redirect_uris = JSON.stringify(unique(input.postLogoutRedirectUris));
  if (input.backchannelLogoutUri !== undefined)
    changes.backchannel_logout_uri = input.backchannelLogoutUri;
  if (input.accessPolicy !== undefined) changes.access_policy = input.accessPolicy;
  if (input.firstParty !== undefined) changes.first_party = input.firstParty ? 1 : 0;
  if (input.minimumLevel !== undefined) changes.minimum_level = input.minimumLevel;
  const updated = await transaction(ctx.db, async (trx) => {
    if (!(await findPlatformById(trx, id))) return undefined;
    await updatePlatformRow(trx, id, changes);
    await recordAudit(trx, ctx.clock, {
      action: 'platform_updated',
      actorId: actor.userId,
      targetId: id,
      ip: actor.ip,
      details: { fields: Object.keys(input) },
    });
    return findPlatformById(trx, id);
  });
  if (!updated) throw new AppError('not_found');
  return presentAdminPlatform(updated);
}

/** Removes a platform: its client stops working at once (its tokens no longer resolve a client). */
export async function deletePlatform(ctx: AppContext, id: string, actor: Actor): Promise<void> {
  const deleted = await transaction(ctx.db, async (trx) => {
    const row = await findPlatformById(trx, id);
    if (!row || !(await deletePlatformRow(trx, id))) return false;
    await recordAudit(trx, ctx.clock, {
      action: 'platform_deleted',
      actorId: actor.userId,
      targetId: id,
      ip: actor.ip,
      details: { name: row.name, clientId: row.client_id },
    });
    return true;
  });
  if (!deleted) throw new AppError('not_found');
}

/** "My services": every platform, with what the access rule lets this user do about it. */
export async function listServices(ctx: AppContext, userId: string): Promise<Service[]> {
  // Read together, in one write to the database (db/transaction.ts `together`).
  const [platforms, access] = await together(ctx.db, (db) =>
    Promise.all([listPlatforms(db), accessRowsOfUser(db, userId)]),
  );
  const statusOf = new Map(access.map((a) => [a.platform_id, a.status]));
  return platforms.map((p) => presentService(p, statusOf.get(p.id) ?? null));
}

/** Each user's standing on every platform (the admin's user list): two indexed queries. */
export async function platformStandingOfUsers(
  ctx: Pick<AppContext, 'db'>,
  userIds: string[],
): Promise<(userId: string) => AdminUser['platforms']> {
  const [platforms, access] = await together(ctx.db, (db) =>
    Promise.all([
      listPlatforms(db),
      userIds.length ? accessRowsOfUsers(db, userIds) : Promise.resolve([]),
    ]),
  );
  return (userId) =>
    platforms.map((p) => {
      const status =
        access.find((a) => a.user_id === userId && a.platform_id === p.id)?.status ?? null;
      return {
        platformId: p.id,
        name: p.name,
        usable: canUsePlatform(p.access_policy, status),
        status,
      };
    });
}

function accessAnswer(
  row: PlatformRow,
  userId: string,
  status: AccessStatus | null,
): PlatformAccess {
  return {
    platformId: row.id,
    userId,
    status,
    usable: canUsePlatform(row.access_policy, status),
    action: nextUserAction(row.access_policy, status),
  };
}

/**
 * The user's own step on "My services": under `on_request` they enable the platform; under `admin`
 * they ask for it (an admin decides). An admin's `disabled` is never undone here.
 */
export async function enableService(
  ctx: AppContext,
  userId: string,
  platformId: string,
  actor: Actor,
): Promise<PlatformAccess> {
  const row = await findPlatformById(ctx.db, platformId);
  if (!row) throw new AppError('not_found');
  const current = await accessOf(ctx.db, userId, platformId);
  const action = nextUserAction(row.access_policy, current);
  if (action === 'none') throw new AppError('access_denied');
  if (action === 'open' || action === 'pending') return accessAnswer(row, userId, current);
  const status = action === 'enable' ? 'enabled' : 'requested';
  await transaction(ctx.db, async (trx) => {
    await setAccess(trx, userId, platformId, status, userId, ctx.clock.now());
    await recordAudit(trx, ctx.clock, {
      action: status === 'enabled' ? 'platform_enabled_by_user' : 'platform_access_requested',
      actorId: actor.userId,
      targetId: userId,
      ip: actor.ip,
      details: { platformId },
    });
  });
  return accessAnswer(row, userId, status);
}

/**
 * An admin lets a user in or cuts their access. It takes effect at the user's next request to the
 * platform: the provider checks the rule at every authorization and every token use.
 */
export async function setUserPlatformAccess(
  ctx: AppContext,
  userId: string,
  platformId: string,
  enabled: boolean,
  actor: Actor,
): Promise<PlatformAccess> {
  const [user, row] = await Promise.all([
    findUserById(ctx.db, userId),
    findPlatformById(ctx.db, platformId),
  ]);
  if (!user || !row) throw new AppError('not_found');
  const status = enabled ? 'enabled' : 'disabled';
  await transaction(ctx.db, async (trx) => {
    await setAccess(trx, userId, platformId, status, actor.userId, ctx.clock.now());
    await recordAudit(trx, ctx.clock, {
      action: enabled ? 'platform_access_enabled' : 'platform_access_disabled',
      actorId: actor.userId,
      targetId: userId,
      ip: actor.ip,
      details: { platformId },
    });
  });
  return accessAnswer(row, userId, status);
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

/** The platform registered as this OIDC client, if any (the provider's client lookup). */
export function platformOfClient(
  ctx: Pick<AppContext, 'db'>,
  clientId: string,
): Promise<PlatformRow | undefined> {
  return findPlatformByClientId(ctx.db, clientId);
}

/** The registered name and address of the platform behind an OIDC client (the error page). */
export async function platformNameOfClient(
  ctx: Pick<AppContext, 'db'>,
  clientId: string,
): Promise<PlatformName> {
  const platform = await findPlatformByClientId(ctx.db, clientId);
  if (!platform) throw new AppError('not_found');
  return { name: platform.name, url: platform.url };
}

/** The platform behind an OIDC client, and whether this user may use it now (the access rule). */
export async function platformAccessForClient(
  ctx: Pick<AppContext, 'db'>,
  clientId: string,
  userId: string,
): Promise<{ platform: PlatformRow; usable: boolean } | undefined> {
  const platform = await findPlatformByClientId(ctx.db, clientId);
  if (!platform) return undefined;
  const status = await accessOf(ctx.db, userId, platform.id);
  return { platform, usable: canUsePlatform(platform.access_policy, status) };
}

/** True when `uri` is a post-logout redirect URI some platform registered (exact match). */
/** True when `uri` is exactly a back-channel logout URI an admin registered for a platform. */
export async function isRegisteredBackchannelUri(
  ctx: Pick<AppContext, 'db'>,
  uri: string,
): Promise<boolean> {
  const platforms = await listPlatforms(ctx.db);
  return platforms.some((p) => p.backchannel_logout_uri === uri);
}

export async function isRegisteredPostLogoutUri(
  ctx: Pick<AppContext, 'db'>,
  uri: string,
): Promise<boolean> {
  const platforms = await listPlatforms(ctx.db);
  return platforms.some((p) => parseUriList(p.post_logout_redirect_uris).includes(uri));
}

/** Every platform's name by its id and by its OIDC client id (a person's activity names them). */
export async function platformNames(
  ctx: Pick<AppContext, 'db'>,
): Promise<{ byId: Map<string, string>; byClientId: Map<string, string> }> {
  const platforms = await listPlatforms(ctx.db);
  return {
    byId: new Map(platforms.map((p) => [p.id, p.name])),
    byClientId: new Map(platforms.map((p) => [p.client_id, p.name])),
  };
}

/** The data export: the person's standing on each platform (access opened, asked for, cut). */
export { accessRowsWithNamesOfUser as platformAccessHeldFor } from './repository.js';
