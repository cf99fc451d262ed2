import type { Language } from '@hygie/domain';
import type { Interaction, InteractionResults } from 'oidc-provider';
import type Provider from 'oidc-provider';
import type { AppContext } from '../../context.js';
import { errorMessage } from '../../i18n/error-messages.js';
import { hmac, safeEqual } from '../../lib/tokens.js';
import { recordAudit } from '../audit/service.js';
import { platformAccessForClient } from '../platforms/service.js';
import type { SessionWithUser } from '../sessions/repository.js';
import { levelOfSession } from '../assurance/service.js';
import { acrFor, amrOf, requestedAcrs } from './assurance.js';
import { SCOPES } from './claims.js';
import { consentPage, pageLanguage } from './pages.js';
import { OIDC_PREFIX } from './provider.js';

/** An interaction the provider started, seen by a browser whose portal session is complete. */
export interface InteractionInput {
  interaction: Interaction;
  session: SessionWithUser;
  language: Language;
  acceptLanguage: string | undefined;
  ip: string | null;
  /** The consent form's answer, on its POST. */
  form?: { decision?: 'allow' | 'deny'; token: string };
}

/** What the browser gets next. */
export type InteractionOutcome =
  /** The platform is unknown (deleted meanwhile). */
  | { kind: 'invalid_client' }
  /** The access rule keeps this user out: the interaction ends with access_denied. */
  | { kind: 'denied'; description: string; clientId: string }
  /** The interaction ends with this result (login and consent, or the user's refusal). */
  | { kind: 'finish'; result: InteractionResults }
  /**
   * A platform that is not first-party asks for consent: this page, in the user's language; its
   * answer ends on `formTarget` (the origin of the platform's redirect URI).
   */
  | { kind: 'consent_page'; html: string; formTarget: string }
  /** A consent form that this session did not get from us. */
  | { kind: 'forged' };

/** When the session's user last proved who they are: the sign-in, or a password re-entered since. */
export function authenticatedAt(session: SessionWithUser): number {
  return Math.max(session.created_at, session.reauthenticated_at ?? 0);
}

/**
 * Whether an authentication at `authTime` satisfies the platform's request: after the request
 * itself for prompt=login, within max_age seconds for max_age (OIDC Core §3.1.2.1). Times are on
 * the context's clock (`now`).
 */
export function freshEnough(
  interaction: Interaction,
  authTime: number,
  now: number,
  providerNow = Date.now(),
): boolean {
  const reasons = interaction.prompt.reasons;
  // The provider dates the request on its own clock; the portal's sessions are on the context's.
  const requestedAt = interaction.iat * 1000 + (now - providerNow);
  if (reasons.includes('login_prompt') && authTime < requestedAt) return false;
  const maxAge = Number(interaction.params.max_age);
  if (reasons.includes('max_age') && Number.isFinite(maxAge) && now - authTime > maxAge * 1000) {
    return false;
  }
  return true;
}

/** The interaction's address on the API origin: where the SPA sends the browser after sign-in. */
export function interactionUrl(publicUrl: URL, uid: string): string {
  return new URL(`${OIDC_PREFIX}/interaction/${encodeURIComponent(uid)}`, publicUrl).href;
}

// The provider types request parameters and prompt details as unknown: read them defensively.
function stringParam(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function stringList(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : undefined;
}

function consentToken(secret: string, uid: string, session: SessionWithUser): string {
  return hmac(secret, `oidc-consent:${uid}:${session.id}`);
}

/**
 * Decides an interaction: refuses a user the access rule keeps out (audited), else finishes login
 * and consent — without a consent screen for first-party platforms.
 */
export async function decideInteraction(
  ctx: AppContext,
  provider: Provider,
  input: InteractionInput,
): Promise<InteractionOutcome> {
  const { interaction, session, form } = input;
  const clientId = stringParam(interaction.params.client_id);
  const access = await platformAccessForClient(ctx, clientId, session.user_id);
  if (!access) return { kind: 'invalid_client' };
  const { platform } = access;

  if (!access.usable) {
    await recordAudit(ctx.db, ctx.clock, {
      action: 'platform_sign_in_denied',
      actorId: session.user_id,
      targetId: session.user_id,
      ip: input.ip,
      details: { platformId: platform.id },
    });
    return {
      kind: 'denied',
      description: errorMessage('access_denied', input.language),
      clientId,
    };
  }

  const login: NonNullable<InteractionResults['login']> = {
    accountId: session.user_id,
    amr: amrOf(session),
    // The level reached, as the highest value the platform asked for that it meets (else its own).
    acr: acrFor(await levelOfSession(ctx, session), requestedAcrs(interaction.params)),
    // When the user last authenticated (never ahead of the provider's own clock).
    ts: Math.floor(Math.min(authenticatedAt(session), Date.now()) / 1000),
  };
  const requested = stringParam(interaction.params.scope)
    .split(' ')
    .filter((scope) => SCOPES.includes(scope));
  const grant = async () => ({
    grantId: await saveGrant(provider, interaction, login.accountId, clientId, requested),
  });

  if (platform.first_party === 1) {
    return { kind: 'finish', result: { login, consent: await grant() } };
  }
  if (interaction.prompt.name !== 'consent') return { kind: 'finish', result: { login } };

  const token = consentToken(ctx.secret, interaction.uid, session);
  if (!form) {
    const uiLocales = stringParam(interaction.params.ui_locales);
    const language = uiLocales ? pageLanguage(uiLocales, input.acceptLanguage) : input.language;
    const missing = stringList(interaction.prompt.details.missingOIDCScope) ?? requested;
    const action = `${OIDC_PREFIX}/interaction/${encodeURIComponent(interaction.uid)}/consent`;
    return {
      kind: 'consent_page',
      html: consentPage(language, platform.name, missing, action, token),
      // The provider checked redirect_uri against the platform's before the interaction started.
      formTarget: new URL(stringParam(interaction.params.redirect_uri)).origin,
    };
  }
  if (!safeEqual(form.token, token)) return { kind: 'forged' };
  const allowed = form.decision === 'allow';
  // The grant is saved first: the event says what the platform was given.
  const consent = allowed ? await grant() : undefined;
  await recordAudit(ctx.db, ctx.clock, {
    action: allowed ? 'oidc_consent_given' : 'oidc_consent_refused',
    actorId: session.user_id,
    targetId: session.user_id,
    ip: input.ip,
    details: { platformId: platform.id, scopes: requested },
  });
  if (!consent) {
    return {
      kind: 'finish',
      result: { error: 'access_denied', error_description: 'the user refused' },
    };
  }
  return { kind: 'finish', result: { login, consent } };
}

/** The grant of this platform for this user, extended with what the request asks for. */
async function saveGrant(
  provider: Provider,
  interaction: Interaction,
  accountId: string,
  clientId: string,
  scopes: string[],
): Promise<string> {
  const { Grant } = provider;
  let grant = interaction.grantId ? await Grant.find(interaction.grantId) : undefined;
  if (!grant || grant.accountId !== accountId || grant.clientId !== clientId) {
    grant = new Grant({ accountId, clientId });
  }
  if (scopes.length) grant.addOIDCScope(scopes.join(' '));
  const claims = stringList(interaction.prompt.details.missingOIDCClaims);
  if (claims?.length) grant.addOIDCClaims(claims);
  return grant.save();
}
