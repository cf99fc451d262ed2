import type {
  Assurance,
  AssuranceLevel,
  AssuranceMapping,
  AssuranceMeans,
  RequiredLevel,
} from '@hygie/domain';
import { meetsLevel } from '@hygie/domain';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/connection.js';
import { transaction } from '../../db/transaction.js';
import { AppError } from '../../lib/app-error.js';
import { recordAudit } from '../audit/service.js';
import { myIdentityLinks } from '../identity-providers/service.js';
import { amrOf } from '../oidc/assurance.js';
import {
  hasWebauthnKey,
  passkeyStepUpOptions,
  verifyPasskeyOfUser,
} from '../biometrics/sign-in.js';
import type { SessionWithUser } from '../sessions/repository.js';
import { markAssuranceRaised } from '../sessions/service.js';
import { loadSettings, saveSetting } from '../settings/service.js';
import type { AppSettings } from '../settings/service.js';
import { verifyTotpCode } from '../totp/service.js';
import type { RecordedAuthentication } from './level.js';
import { assuranceLevel, DEFAULT_ASSURANCE_MAPPING, mappingProblem } from './level.js';

/** The mapping in force: the operator's, else the portal's default. */
export function mappingOf(settings: Pick<AppSettings, 'ASSURANCE_MAPPING'>): AssuranceMapping {
  return settings.ASSURANCE_MAPPING ?? DEFAULT_ASSURANCE_MAPPING;
}

/** A session's level under the mapping in force (one settings read). */
export async function levelOfSession(
  ctx: Pick<AppContext, 'db' | 'config' | 'clock'>,
  session: RecordedAuthentication,
): Promise<AssuranceLevel> {
  return assuranceLevel(session, mappingOf(await loadSettings(ctx)));
}

/** The methods a session holds after a step-up with `added` (kept in order, each once). */
function withMethods(amr: string | null, added: readonly string[]): string {
  const methods = (amr ?? 'pwd').split(' ').filter(Boolean);
  for (const method of added) if (!methods.includes(method)) methods.push(method);
  return methods.join(' ');
}

/** The display name of an upstream provider (a proper noun: the same in every language). */
export function providerName(ctx: AppContext, id: string): string {
  const provider = ctx.config.identityProviders.find((p) => p.id === id);
  if (provider?.claims === 'psc') return 'Pro Santé Connect';
  const plus = provider?.acrValues.every((acr) => acr === 'eidas2' || acr === 'eidas3');
  return plus && provider?.acrValues.length ? 'FranceConnect+' : 'FranceConnect';
}

/**
 * GET /api/me/assurance: the session's level and methods, the account area's minimum, and with
 * `required`, whether the session reaches it and which means would: those the user holds
 * (`means`: the authenticator app, a passkey, a linked provider) and those they could set up
 * (`enrolment`). A means counts when the session's methods with it would reach the level.
 */
export async function assuranceOf(
  ctx: AppContext,
  session: SessionWithUser,
  required: RequiredLevel | undefined,
): Promise<Assurance> {
  const settings = await loadSettings(ctx);
  const amr = amrOf(session);
  const mapping = mappingOf(settings);
  const level = assuranceLevel(session, mapping);
  const answer: Assurance = { level, amr, accountMinimum: settings.ACCOUNT_MINIMUM_LEVEL };
  if (!required) return answer;
  const reaches = (added: string[], upstreamAcr: string | null = session.upstream_acr) =>
    meetsLevel(
      assuranceLevel(
        { ...session, amr: withMethods(session.amr, added), upstream_acr: upstreamAcr },
        mapping,
      ),
      required,
    );
  const links = (await myIdentityLinks(ctx, session.user_id)).map((link) => link.provider);
  const means: AssuranceMeans[] = [];
  const enrolment: AssuranceMeans[] = [];
  if (reaches(['totp'])) {
    (session.user.totp_enabled_at !== null ? means : enrolment).push({ kind: 'totp' });
  }
  if (reaches(['hwk', 'user'])) {
    ((await hasWebauthnKey(ctx.db, session.user_id)) ? means : enrolment).push({
      kind: 'passkey',
    });
  }
  for (const provider of ctx.config.identityProviders) {
    // The provider may answer any of the levels the portal asks it for: the highest counts.
    if (!provider.acrValues.some((acr) => reaches(['ext'], `${provider.id}:${acr}`))) continue;
    const item: AssuranceMeans = {
      kind: 'provider',
      id: provider.id,
      name: providerName(ctx, provider.id),
    };
    (links.includes(provider.id) ? means : enrolment).push(item);
  }
  return { ...answer, required, reached: meetsLevel(level, required), means, enrolment };
}

/** Records a step-up on the session, audited; returns the level it reaches now. */
async function raise(
  ctx: AppContext,
  session: SessionWithUser,
  added: string[],
  channel: string,
  ip: string | null,
  upstreamAcr?: string,
): Promise<AssuranceLevel> {
  const amr = withMethods(session.amr, added);
  await markAssuranceRaised(ctx.db, session.id, ctx.clock.now(), { amr, upstreamAcr });
  const level = await levelOfSession(ctx, {
    amr,
    mfa_verified_at: ctx.clock.now(),
    upstream_acr: upstreamAcr ?? session.upstream_acr,
  });
  await recordAudit(ctx.db, ctx.clock, {
    action: 'second_factor_passed',
    actorId: session.user_id,
    targetId: session.user_id,
    ip,
    details: { channel, stepUp: true, level },
  });
  return level;
}

/** POST /api/me/assurance/totp: a code of the authenticator app raises the session (`totp`). */
export async function stepUpWithTotp(
  ctx: AppContext,
  session: SessionWithUser,
  code: string,
  ip: string | null,
): Promise<AssuranceLevel> {
  await verifyTotpCode(ctx, session.user_id, code);
  return raise(ctx, session, ['totp'], 'totp', ip);
}

/** POST /api/me/assurance/passkey/options: a challenge for one of the user's passkeys. */
export function stepUpPasskeyOptions(ctx: AppContext, session: SessionWithUser) {
  return passkeyStepUpOptions(ctx, session.user_id);
}

/**
 * POST /api/me/assurance/passkey: one of the user's passkeys, with user verification, raises the
 * session (`hwk user`). Another account's key is refused like a wrong one.
 */
export async function stepUpWithPasskey(
  ctx: AppContext,
  session: SessionWithUser,
  input: { challengeId: string; response: Record<string, unknown> },
  ip: string | null,
): Promise<AssuranceLevel> {
  await verifyPasskeyOfUser(ctx, session.user_id, input);
  return raise(ctx, session, ['hwk', 'user'], 'passkey', ip);
}

/**
 * An upstream provider's sign-in, of the identity linked to the session's own account, raises the
 * session (`ext` and the provider's `acr`) — the identity-providers callback calls it.
 */
export function stepUpWithProvider(
  ctx: AppContext,
  session: SessionWithUser,
  provider: string,
  acr: string | null,
  ip: string | null,
): Promise<AssuranceLevel> {
  return raise(ctx, session, ['ext'], provider, ip, acr ? `${provider}:${acr}` : undefined);
}

// What the step-up screen and the enrolment of a means need stay open below the account area's
// minimum (never a dead end); so does the current user (`GET /api/me`: the web app's guard).
const OPEN_BELOW_MINIMUM = ['/api/me/assurance', '/api/me/totp'];

/** Whether a route of the account area is held to its minimum level (docs/api.md). */
export function heldToAccountMinimum(method: string, url: string): boolean {
  if (!url.startsWith('/api/me/')) return false;
  if (OPEN_BELOW_MINIMUM.some((open) => url === open || url.startsWith(`${open}/`))) return false;
  return !(method === 'GET' && url === '/api/me/identity-links');
}

/**
 * The account area's minimum: a complete session below it is refused (403
 * assurance_level_required, with the level), except on the routes that raise it.
 */
export async function assertAccountLevel(
  ctx: AppContext,
  session: RecordedAuthentication,
): Promise<void> {
  const settings = await loadSettings(ctx);
  const minimum = settings.ACCOUNT_MINIMUM_LEVEL;
  if (!minimum) return;
  if (!meetsLevel(assuranceLevel(session, mappingOf(settings)), minimum)) {
    throw new AppError('assurance_level_required', { level: minimum });
  }
}

/** The admin view of the assurance settings. */
export async function assuranceSettings(ctx: AppContext) {
  const settings = await loadSettings(ctx);
  return {
    accountMinimumLevel: settings.ACCOUNT_MINIMUM_LEVEL,
    mapping: mappingOf(settings),
    defaultMapping: DEFAULT_ASSURANCE_MAPPING,
  };
}

/**
 * Changes the account area's minimum and/or the mapping (null: back to the default); a mapping
 * naming a method the portal never records is refused (400 assurance_mapping_invalid). Audited.
 */
export async function changeAssuranceSettings(
  ctx: AppContext,
  input: { accountMinimumLevel?: RequiredLevel | null; mapping?: AssuranceMapping | null },
  actor: { userId: string; ip: string | null },
) {
  const problem = input.mapping ? mappingProblem(input.mapping) : null;
  if (problem !== null) throw new AppError('assurance_mapping_invalid', { method: problem });
  const now = ctx.clock.now();
  await transaction(ctx.db, async (trx: Db) => {
    const before = await loadSettings(ctx, trx);
    const changes: [keyof AppSettings, unknown, unknown][] = [];
    if (input.accountMinimumLevel !== undefined) {
      await saveSetting(trx, 'ACCOUNT_MINIMUM_LEVEL', input.accountMinimumLevel, actor.userId, now);
      changes.push([
        'ACCOUNT_MINIMUM_LEVEL',
        before.ACCOUNT_MINIMUM_LEVEL,
        input.accountMinimumLevel,
      ]);
    }
    if (input.mapping !== undefined) {
      await saveSetting(trx, 'ASSURANCE_MAPPING', input.mapping, actor.userId, now);
      changes.push(['ASSURANCE_MAPPING', before.ASSURANCE_MAPPING, input.mapping]);
    }
    for (const [key, old, value] of changes) {
      await recordAudit(trx, ctx.clock, {
        action: 'setting_changed',
        actorId: actor.userId,
        ip: actor.ip,
        details: { key, old, new: value },
      });
    }
  });
  return assuranceSettings(ctx);
}
