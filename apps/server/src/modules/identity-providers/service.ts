import * as client from 'openid-client';
import type {
  Brand,
  IdpError,
  IdpIntent,
  Language,
  PendingIdentity,
  RequiredLevel,
} from '@hygie/domain';
import { normalizeIdentityName, normalizeInseeCode, safeTargetUri } from '@hygie/domain';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/connection.js';
import { transaction } from '../../db/transaction.js';
import type { SessionRow, UserRow } from '../../db/schema.js';
import type { IdentityProviderConfig } from '../../config.js';
import { AppError, isAppError } from '../../lib/app-error.js';
import { recordAudit } from '../audit/service.js';
import type { LoginResult, SignInAttempt, SignInCompleted } from '../auth/service.js';
import { onSignInCompleted, signInProven } from '../auth/service.js';
import { assertRecentProof } from '../step-up/service.js';
import { queueSecurityNotice } from '../users/notices.js';
import { findUserForUpdate, updatePersonFields } from '../users/service.js';
import type { UpstreamIdentity } from './claims.js';
import { countsAsTwoFactors, isFranceConnectPlus, mapClaims } from './claims.js';
import { assertedFields, usedFamilyNameOf } from './prefill.js';
import type { IdentityLinkRow } from './repository.js';
import { deleteLink, findLink, insertLink, linksOfUser, markLinkUsed } from './repository.js';
import type { PendingLink } from './pending-link.js';
import { openPendingLink, PENDING_LINK_TTL_MS, sealPendingLink } from './pending-link.js';
import type { IdpTransaction } from './transaction.js';
import { openTransaction, sealTransaction, TRANSACTION_TTL_MS } from './transaction.js';
import {
  backoffRemaining,
  FAILURE_BACKOFF_MS,
  forgetConfiguration,
  isUnavailability,
  openBackoff,
  ProviderRefused,
  ProviderUnavailable,
  providerConfiguration,
} from './upstream.js';

/** What an API caller is told to wait before trying an unavailable provider again. */
export const RETRY_AFTER_SECONDS = FAILURE_BACKOFF_MS / 1000;

/** The providers one may sign in with (their ids), in configuration order. */
export function enabledProviderIds(ctx: AppContext): string[] {
  return ctx.config.identityProviders.map((provider) => provider.id);
}

/** Whether the enabled FranceConnect is FranceConnect+ (its button is then that variant). */
export function franceConnectPlusEnabled(providers: readonly IdentityProviderConfig[]): boolean {
  return providers.some((provider) => isFranceConnectPlus(provider.claims, provider.acrValues));
}

/** A configured provider, or 404 (an unknown or unconfigured one does not exist). */
export function providerOf(ctx: AppContext, id: string): IdentityProviderConfig {
  const provider = ctx.config.identityProviders.find((p) => p.id === id);
  if (!provider) throw new AppError('not_found');
  return provider;
}

/** The redirect URI to register at the provider: PUBLIC_URL + /api/idp/<id>/callback. */
export function callbackUrl(ctx: AppContext, provider: IdentityProviderConfig): string {
  return new URL(`/api/idp/${provider.id}/callback`, ctx.config.publicUrl).href;
}

/** The audit record of a failed provider sign-in: the provider, the step, the reason (no claims). */
async function recordFailure(
  ctx: AppContext,
  provider: IdentityProviderConfig,
  reason: IdpError,
  ip: string | null,
  details: { step?: string; targetId?: string } = {},
): Promise<void> {
  const { targetId, ...rest } = details;
  ctx.metrics.identityProviderSignIns.inc({ provider: provider.id, outcome: reason });
  await recordAudit(ctx.db, ctx.clock, {
    action: 'identity_provider_failed',
    targetId: targetId ?? null,
    ip,
    details: { provider: provider.id, reason, ...rest },
  });
}

/**
 * What an API caller gets for an unavailable provider: 503 with Retry-After, the time left in the
 * provider's back-off window (the whole window when none is open).
 */
export function providerUnavailableError(
  ctx: AppContext,
  providerId: string,
): AppError<'identity_provider_unavailable'> {
  const remaining = backoffRemaining(ctx, providerId) || FAILURE_BACKOFF_MS;
  return new AppError('identity_provider_unavailable', undefined, {
    'retry-after': String(Math.max(1, Math.ceil(remaining / 1000))),
  });
}

/**
 * Records an unavailable provider: discovered again next time, left alone for the back-off
 * window (FAILURE_BACKOFF_MS), audited once per window with the step that failed. A sign-in
 * counts in the metrics every time; a logout's failure does not (no sign-in).
 */
export async function unavailable(
  ctx: AppContext,
  provider: IdentityProviderConfig,
  err: ProviderUnavailable,
  ip: string | null,
  flow: 'sign-in' | 'logout' = 'sign-in',
): Promise<void> {
  forgetConfiguration(ctx, provider.id);
  if (flow === 'sign-in') {
    ctx.metrics.identityProviderSignIns.inc({
      provider: provider.id,
      outcome: 'identity_provider_unavailable',
    });
  }
  if (!openBackoff(ctx, provider.id)) return;
  await recordAudit(ctx.db, ctx.clock, {
    action: 'identity_provider_failed',
    targetId: null,
    ip,
    details: {
      provider: provider.id,
      reason: 'identity_provider_unavailable',
      step: err.step,
      ...(flow === 'logout' ? { flow } : {}),
    },
  });
}

/**
 * Whether a provider is in its back-off window: a sign-in started then answers unavailable at
 * once (counted in the metrics, not audited: the failure that opened the window was).
 */
function leftAlone(ctx: AppContext, provider: IdentityProviderConfig): boolean {
  if (backoffRemaining(ctx, provider.id) === 0) return false;
  ctx.metrics.identityProviderSignIns.inc({
    provider: provider.id,
    outcome: 'identity_provider_unavailable',
  });
  return true;
}

/**
 * Starts a sign-in with a provider: the authorization URL (code flow, PKCE S256, state, nonce,
 * acr_values) and the sealed transaction the browser keeps until the provider sends it back.
 */
export async function startSignIn(
  ctx: AppContext,
  providerId: string,
  target: string | undefined,
  ip: string | null,
  intent: IdpIntent = 'sign_in',
  level?: RequiredLevel,
): Promise<{ url: string; transaction: string }> {
  const provider = providerOf(ctx, providerId);
  if (leftAlone(ctx, provider)) throw providerUnavailableError(ctx, provider.id);
  let configuration: client.Configuration;
  try {
    configuration = await providerConfiguration(ctx, provider);
  } catch (err) {
    if (err instanceof ProviderUnavailable) {
      await unavailable(ctx, provider, err, ip);
      throw providerUnavailableError(ctx, provider.id);
    }
    throw err;
  }
  const verifier = client.randomPKCECodeVerifier();
  const transaction: IdpTransaction = {
    provider: provider.id,
    state: client.randomState(),
    nonce: client.randomNonce(),
    verifier,
    target: safeTargetUri(target, ctx.config.publicUrl.origin),
    intent,
    ...(intent === 'step_up' && level ? { level } : {}),
    expiresAt: ctx.clock.now() + TRANSACTION_TTL_MS,
  };
  const url = client.buildAuthorizationUrl(configuration, {
    redirect_uri: callbackUrl(ctx, provider),
    response_type: 'code',
    scope: provider.scopes.join(' '),
    acr_values: provider.acrValues.join(' '),
    state: transaction.state,
    nonce: transaction.nonce,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  });
  return { url: url.href, transaction: sealTransaction(ctx.secret, transaction) };
}

/** Where the browser was headed, and why the sign-in was started: in every outcome. */
interface CallbackCourse {
  target: string | null;
  intent: IdpIntent;
  /** The level a step-up was started for. */
  level?: RequiredLevel;
}

export type CallbackOutcome = CallbackCourse &
  (
    | { ok: true; result: LoginResult }
    /**
     * A step-up (`intent=step_up`): the identity is linked to this account, and the provider
     * answered this `acr` (null: none it stores): the caller raises the session.
     */
    | { ok: true; stepUp: { provider: string; userId: string; acr: string | null } }
    | { ok: false; error: IdpError }
    /**
     * Linked to no account: the identity waits (sealed) while the person proves an account, or
     * registers one of `profile`'s kind with it.
     */
    | {
        ok: false;
        error: 'not_linked';
        pendingLink: string;
        profile: PendingIdentity['profile'];
      }
  );

/**
 * The provider sent the browser back. The transaction must be this provider's, unexpired, with
 * the same state (else 400: nothing is signed in). Then the code is exchanged (PKCE verifier,
 * nonce, the ID token's iss and aud checked by openid-client), the userinfo fetched and mapped,
 * and a linked subject signs its account in.
 */
export async function finishSignIn(
  ctx: AppContext,
  providerId: string,
  currentUrl: URL,
  sealed: string | undefined,
  attempt: SignInAttempt,
): Promise<CallbackOutcome> {
  const provider = providerOf(ctx, providerId);
  const { ip } = attempt.meta;
  const transaction = openTransaction(ctx.secret, sealed);
  const state = currentUrl.searchParams.get('state');
  if (
    !transaction ||
    transaction.provider !== provider.id ||
    transaction.expiresAt <= ctx.clock.now() ||
    state !== transaction.state
  ) {
    throw new AppError('identity_provider_sign_in_invalid');
  }
  const course: CallbackCourse = {
    target: transaction.target,
    intent: transaction.intent,
    ...(transaction.level ? { level: transaction.level } : {}),
  };
  const providerError = currentUrl.searchParams.get('error');
  if (providerError !== null) {
    const error = providerError === 'access_denied' ? 'cancelled' : 'refused';
    await recordFailure(ctx, provider, error, ip, { step: 'authorization' });
    return { ...course, ok: false, error };
  }
  let identity: UpstreamIdentity | null;
  let acr: unknown;
  let idToken: string;
  try {
    ({ identity, acr, idToken } = await exchange(ctx, provider, currentUrl, transaction));
  } catch (err) {
    if (err instanceof ProviderUnavailable) {
      await unavailable(ctx, provider, err, ip);
      return { ...course, ok: false, error: 'identity_provider_unavailable' };
    }
    if (err instanceof ProviderRefused) {
      await recordFailure(ctx, provider, 'refused', ip, { step: err.step });
      return { ...course, ok: false, error: 'refused' };
    }
    throw err;
  }
  if (!identity) {
    await recordFailure(ctx, provider, 'refused', ip, { step: 'claims' });
    return { ...course, ok: false, error: 'refused' };
  }
  const link = await findLink(ctx.db, provider.id, identity.subject);
  if (transaction.intent === 'step_up') {
    // No sign-in and no pending link: the caller checks the link is the session's account.
    if (!link || !(await markLinkUsed(ctx.db, provider.id, link.subject, ctx.clock.now()))) {
      return { ...course, ok: false, error: 'not_linked' };
    }
    return {
      ...course,
      ok: true,
      stepUp: { provider: provider.id, userId: link.user_id, acr: storableAcr(acr) },
    };
  }
  if (!link) {
    await recordFailure(ctx, provider, 'not_linked', ip);
    const now = ctx.clock.now();
    const pending: PendingLink = {
      provider: provider.id,
      identity,
      acr: typeof acr === 'string' ? acr : null,
      createdAt: now,
      expiresAt: now + PENDING_LINK_TTL_MS,
    };
    return {
      ...course,
      ok: false,
      error: 'not_linked',
      pendingLink: sealPendingLink(ctx.secret, pending),
      profile: assertedFields(identity).profile,
    };
  }
  try {
    const twoFactors = countsAsTwoFactors(provider.claims, provider.acrValues, acr);
    const result = await signInLinked(
      ctx,
      provider,
      link,
      { twoFactors, idToken, acr: upstreamAcr(provider.id, acr) },
      attempt,
    );
    if (!result) return { ...course, ok: false, error: 'not_linked' };
    ctx.metrics.identityProviderSignIns.inc({ provider: provider.id, outcome: 'ok' });
    return { ...course, ok: true, result };
  } catch (err) {
    if (
      isAppError(err) &&
      (err.code === 'account_locked' ||
        err.code === 'account_disabled' ||
        err.code === 'account_pending_validation')
    ) {
      ctx.metrics.identityProviderSignIns.inc({ provider: provider.id, outcome: err.code });
      return { ...course, ok: false, error: err.code };
    }
    throw err;
  }
}

/**
 * The provider's `acr` as the session records it, `<provider>:<acr>` (the level follows from it,
 * docs/oidc.md); null when the provider sent none, or one the portal would not store.
 */
function upstreamAcr(providerId: string, acr: unknown): string | null {
  const value = storableAcr(acr);
  return value === null ? null : `${providerId}:${value}`;
}

/** An `acr` the portal stores: a short token (an eIDAS level); anything else is not kept. */
function storableAcr(acr: unknown): string | null {
  return typeof acr === 'string' && /^[\w.-]{1,40}$/.test(acr) ? acr : null;
}

/**
 * The code exchange, then the userinfo: the identity the provider asserts, its `acr`, and the ID
 * token (the `id_token_hint` of the logout at the provider).
 */
async function exchange(
  ctx: AppContext,
  provider: IdentityProviderConfig,
  currentUrl: URL,
  transaction: IdpTransaction,
): Promise<{ identity: UpstreamIdentity | null; acr: unknown; idToken: string }> {
  const configuration = await providerConfiguration(ctx, provider);
  // openid-client compares the redirect URI it sends with the one the browser came back to.
  const returned = new URL(callbackUrl(ctx, provider));
  returned.search = currentUrl.search;
  let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
  try {
    tokens = await client.authorizationCodeGrant(configuration, returned, {
      pkceCodeVerifier: transaction.verifier,
      expectedState: transaction.state,
      expectedNonce: transaction.nonce,
      idTokenExpected: true,
    });
  } catch (err) {
    if (isUnavailability(err)) throw new ProviderUnavailable('token', { cause: err });
    throw new ProviderRefused('token', { cause: err });
  }
  const claims = tokens.claims();
  const idToken = tokens.id_token;
  if (!claims || idToken === undefined) {
    throw new ProviderRefused('token', { cause: new Error('no ID token') });
  }
  let userinfo: client.UserInfoResponse;
  try {
    userinfo = await client.fetchUserInfo(configuration, tokens.access_token, claims.sub);
  } catch (err) {
    if (isUnavailability(err)) throw new ProviderUnavailable('userinfo', { cause: err });
    throw new ProviderRefused('userinfo', { cause: err });
  }
  return {
    identity: mapClaims(provider.claims, claims.sub, { ...claims, ...userinfo }),
    acr: claims.acr,
    idToken,
  };
}

/**
 * A linked subject signs its account in, like a password sign-in: the provider's sign-in is the
 * first factor (`ext`), and both (`ext mfa`) when its `acr` reaches the configured level with a
 * two-factor means; below it, the portal's second factor follows. The other stages still apply.
 * The session keeps the provider's ID token (sealed) for the logout at the provider. Null when the
 * link, or its account, went away since the link was read.
 */
function signInLinked(
  ctx: AppContext,
  provider: IdentityProviderConfig,
  link: IdentityLinkRow,
  { twoFactors, idToken, acr }: { twoFactors: boolean; idToken: string; acr: string | null },
  attempt: SignInAttempt,
): Promise<LoginResult | null> {
  return signInProven(
    ctx,
    {
      userId: link.user_id,
      method: 'identity_provider',
      proof: {
        amr: twoFactors ? ['ext', 'mfa'] : ['ext'],
        mfaVerifiedAt: twoFactors ? ctx.clock.now() : null,
        upstream: { provider: provider.id, idToken },
        upstreamAcr: acr,
      },
      event: { action: 'login_identity_provider', details: { provider: provider.id, twoFactors } },
      use: (trx, now) => markLinkUsed(trx, provider.id, link.subject, now),
    },
    attempt,
  );
}

/** Links a provider's subject to an account (the linking flows of the next steps call this). */
export async function linkIdentity(
  ctx: AppContext,
  providerId: string,
  subject: string,
  userId: string,
): Promise<void> {
  await insertLink(ctx.db, {
    provider: providerOf(ctx, providerId).id,
    subject,
    user_id: userId,
    created_at: ctx.clock.now(),
    last_used_at: null,
  });
}

/** An account's links, for its data export. */
export { linksOfUser as identityLinksOfUser };

/** Why a pending identity was not linked to the account that proved itself (audited). */
export type LinkRefusal =
  'expired' | 'not_validated' | 'rpps_mismatch' | 'traits_mismatch' | 'already_linked';

/**
 * Whether the identity a provider asserted is this account's. Pro Santé Connect: the national
 * id must be 8 + the RPPS of a validated professional account. FranceConnect: every pivot trait
 * must equal the stored INS trait — birth name (the stored birth name, else last name), all
 * first names, birth date, sex, and birthplace (the INSEE commune code, or for someone born
 * abroad the INSEE country code the account stores as birthplace) — names compared after
 * `normalizeIdentityName`; a trait missing on either side is a mismatch.
 */
export function identityMismatch(
  user: UserRow,
  identity: UpstreamIdentity,
): 'not_validated' | 'rpps_mismatch' | 'traits_mismatch' | null {
  if (identity.professional) {
    if (user.profile !== 'professional' || user.status !== 'active') return 'not_validated';
    const rpps = identity.professional.rpps;
    const matches =
      rpps !== null && user.professional_id_type === 'RPPS' && user.professional_id === rpps;
    return matches ? null : 'rpps_mismatch';
  }
  const pivot = identity.pivot;
  if (!pivot) return 'traits_mismatch';
  const sameName = (asserted: string | null, stored: string | null) =>
    asserted !== null &&
    stored !== null &&
    normalizeIdentityName(asserted) !== '' &&
    normalizeIdentityName(asserted) === normalizeIdentityName(stored);
  const bornAbroad = pivot.birthCountry !== null && pivot.birthCountry !== '99100';
  const birthPlace = bornAbroad ? pivot.birthCountry : pivot.birthPlace;
  const matches =
    sameName(identity.familyName, user.birth_name ?? user.last_name) &&
    sameName(identity.givenName, user.first_name) &&
    pivot.birthDate !== null &&
    pivot.birthDate === user.birth_date &&
    pivot.gender !== null &&
    pivot.gender === user.sex &&
    birthPlace !== null &&
    user.birth_place_insee !== null &&
    normalizeInseeCode(birthPlace) === normalizeInseeCode(user.birth_place_insee);
  return matches ? null : 'traits_mismatch';
}

/**
 * When a password sign-in completes in a browser holding a pending identity, that identity is
 * linked to the account — only if it is the account's (identityMismatch), the pending link is
 * unexpired, and neither the subject nor the account has a link with this provider yet. A
 * provider sign-in is no proof (it leaves the pending identity alone). Runs in the completion's
 * transaction; refusals are audited, never thrown (the sign-in itself stands).
 */
async function linkPendingIdentity(
  ctx: AppContext,
  trx: Db,
  { user, session, request }: SignInCompleted,
): Promise<void> {
  const pending = openPendingLink(ctx.secret, request.pendingLink);
  if (!pending) return;
  if (!(session.amr ?? '').split(' ').includes('pwd')) return;
  const provider = ctx.config.identityProviders.find((p) => p.id === pending.provider);
  if (!provider) return;
  const refuse = async (reason: LinkRefusal) => {
    await recordAudit(trx, ctx.clock, {
      action: 'identity_link_refused',
      actorId: user.id,
      targetId: user.id,
      ip: request.ip,
      details: { provider: provider.id, reason },
    });
  };
  const now = ctx.clock.now();
  if (pending.expiresAt <= now) return refuse('expired');
  const mismatch = identityMismatch(user, pending.identity);
  if (mismatch) return refuse(mismatch);
  const existing = await linksOfUser(trx, user.id);
  const taken = await findLink(trx, provider.id, pending.identity.subject);
  if (taken || existing.some((link) => link.provider === provider.id)) {
    return refuse('already_linked');
  }
  await insertLink(trx, {
    provider: provider.id,
    subject: pending.identity.subject,
    user_id: user.id,
    created_at: now,
    last_used_at: null,
  });
  // The used family name FranceConnect asserts fills a patient's empty one (never replaces it).
  const usedName = user.profile === 'patient' ? usedFamilyNameOf(pending.identity) : null;
  const fillsUsedName = usedName !== null && user.last_name_used === null;
  if (fillsUsedName) await updatePersonFields(trx, user.id, { last_name_used: usedName });
  await recordAudit(trx, ctx.clock, {
    action: 'identity_linked',
    actorId: user.id,
    targetId: user.id,
    ip: request.ip,
    details: { provider: provider.id, ...(fillsUsedName ? { filled: ['lastNameUsed'] } : {}) },
  });
  await queueSecurityNotice(ctx, trx, user, 'identity_linked', request, {
    provider: providerName(provider.id),
  });
}

/** A provider as the notices name it: the known ones by their own name, another by its id. */
function providerName(id: string): string {
  if (id === 'psc') return 'Pro Santé Connect';
  if (id === 'franceconnect') return 'FranceConnect';
  return id;
}

onSignInCompleted(linkPendingIdentity);

/** An account's links as the account area shows them. */
export async function myIdentityLinks(
  ctx: AppContext,
  userId: string,
): Promise<{ provider: string; linkedAt: number; lastUsedAt: number | null }[]> {
  const links = await linksOfUser(ctx.db, userId);
  return links.map((link) => ({
    provider: link.provider,
    linkedAt: link.created_at,
    lastUsedAt: link.last_used_at,
  }));
}

/**
 * Removes the signed-in account's link with a provider (a step-up within the window, like the
 * other sensitive changes). Never the last way to sign in: an account without a password keeps
 * its last link (409 last_sign_in_method). 404 when there is no such link (or it was just
 * removed by a parallel call).
 */
export async function unlinkIdentity(
  ctx: AppContext,
  session: SessionRow,
  providerId: string,
  request: { ip: string | null; language: Language; brand: Brand },
): Promise<void> {
  const { ip } = request;
  assertRecentProof(ctx, session);
  const userId = session.user_id;
  await transaction(ctx.db, async (trx) => {
    // The account's row locked: two removals at once cannot both see the other link still there.
    const user = await findUserForUpdate(trx, userId);
    if (!user) throw new AppError('not_logged_in');
    const links = await linksOfUser(trx, userId);
    if (!links.some((link) => link.provider === providerId)) throw new AppError('not_found');
    if (user.password_hash === null && links.length <= 1) {
      throw new AppError('last_sign_in_method');
    }
    const removed = await deleteLink(trx, userId, providerId);
    if (removed === 0) throw new AppError('not_found');
    await recordAudit(trx, ctx.clock, {
      action: 'identity_unlinked',
      actorId: userId,
      targetId: userId,
      ip,
      details: { provider: providerId },
    });
    await queueSecurityNotice(ctx, trx, user, 'identity_unlinked', request, {
      provider: providerName(providerId),
    });
  });
}

/** The identity waiting in a browser's pending-link cookie, and what a registration takes of it. */
export interface PendingRegistration {
  pending: PendingLink;
  view: PendingIdentity;
}

/**
 * The identity a provider asserted that waits in this browser, for a registration: null when the
 * cookie is absent, altered, expired, of a provider no longer configured, or its subject has been
 * linked meanwhile.
 */
export async function pendingRegistration(
  ctx: AppContext,
  sealed: string | null | undefined,
): Promise<PendingRegistration | null> {
  const pending = openPendingLink(ctx.secret, sealed);
  if (!pending || pending.expiresAt <= ctx.clock.now()) return null;
  if (!ctx.config.identityProviders.some((p) => p.id === pending.provider)) return null;
  if (await findLink(ctx.db, pending.provider, pending.identity.subject)) return null;
  return {
    pending,
    view: {
      provider: pending.provider,
      expiresAt: pending.expiresAt,
      ...assertedFields(pending.identity),
    },
  };
}

/**
 * Links an account registered from a pending identity, in the registration's transaction; with
 * `validated`, audits that the provider's assertion (a Pro Santé Connect RPPS) validated the
 * professional instead of an admin.
 */
export async function linkRegisteredIdentity(
  ctx: AppContext,
  trx: Db,
  pending: PendingLink,
  userId: string,
  { ip, validated }: { ip: string | null; validated: boolean },
): Promise<void> {
  await insertLink(trx, {
    provider: pending.provider,
    subject: pending.identity.subject,
    user_id: userId,
    created_at: ctx.clock.now(),
    last_used_at: null,
  });
  await recordAudit(trx, ctx.clock, {
    action: 'identity_linked',
    actorId: userId,
    targetId: userId,
    ip,
    details: { provider: pending.provider, registration: true },
  });
  if (validated) {
    await recordAudit(trx, ctx.clock, {
      action: 'account_validated',
      actorId: null,
      targetId: userId,
      ip,
      details: { evidence: 'identity_provider', provider: pending.provider },
    });
  }
}
