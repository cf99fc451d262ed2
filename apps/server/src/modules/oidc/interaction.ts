import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Interaction, InteractionResults } from 'oidc-provider';
import type Provider from 'oidc-provider';
import { errors } from 'oidc-provider';
import type { AppContext } from '../../context.js';
import { errorMessage } from '../../i18n/error-messages.js';
import { hmac, safeEqual } from '../../lib/tokens.js';
import type { RequireSession } from '../../plugins/authenticate.js';
import { recordAudit } from '../audit/service.js';
import { platformAccessForClient } from '../platforms/service.js';
import type { SessionWithUser } from '../sessions/repository.js';
import { SCOPES } from './claims.js';
import { consentPage, pageLanguage } from './pages.js';
import { completeSession } from './portal.js';
import { OIDC_PREFIX, oauthErrorUrl } from './provider.js';

export interface InteractionDeps {
  ctx: AppContext;
  provider: Provider;
  requireSession: RequireSession;
}

type Decision = 'allow' | 'deny' | undefined;

// The provider types request parameters and prompt details as unknown: read them defensively.
function stringParam(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function stringList(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : undefined;
}

/** The interaction's address on the API origin: where the SPA sends the browser after sign-in. */
export function interactionUrl(publicUrl: URL, uid: string): string {
  return new URL(`${OIDC_PREFIX}/interaction/${encodeURIComponent(uid)}`, publicUrl).href;
}

function consentToken(secret: string, uid: string, session: SessionWithUser): string {
  return hmac(secret, `oidc-consent:${uid}:${session.id}`);
}

/**
 * Runs an interaction the provider started (GET, and the consent form's POST): sends the browser
 * to sign in when the portal session is not complete, refuses a user the access rule keeps out
 * (the interaction ends with access_denied and the browser lands on /oauth-error), else finishes
 * login and consent — without a consent screen for first-party platforms.
 */
export async function runInteraction(
  deps: InteractionDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  uid: string,
  form?: { decision?: Decision; token: string },
): Promise<FastifyReply> {
  const { ctx, provider, requireSession } = deps;
  const publicUrl = ctx.config.publicUrl;
  let interaction: Interaction | undefined;
  try {
    interaction = await provider.interactionDetails(request.raw, reply.raw);
  } catch (err) {
    // SessionNotFound (an invalid_request): no interaction cookie, or it expired.
    if (!(err instanceof errors.InvalidRequest)) throw err;
  }
  if (interaction?.uid !== uid) {
    return reply.redirect(
      oauthErrorUrl(publicUrl, {
        error: 'invalid_request',
        error_description: 'the sign-in request expired: start again from the platform',
      }),
      303,
    );
  }

  const session = await completeSession(requireSession, request);
  if (!session) {
    const login = new URL('/security/login', publicUrl);
    login.searchParams.set('target_uri', interactionUrl(publicUrl, uid));
    return reply.redirect(login.href, 303);
  }

  const clientId = stringParam(interaction.params.client_id);
  const access = await platformAccessForClient(ctx, clientId, session.user_id);
  if (!access) {
    return reply.redirect(oauthErrorUrl(publicUrl, { error: 'invalid_client' }), 303);
  }
  const { platform } = access;
  const finish = async (result: InteractionResults) => {
    const returnTo = await provider.interactionResult(request.raw, reply.raw, result, {
      mergeWithLastSubmission: false,
    });
    return reply.redirect(returnTo, 303);
  };

  if (!access.usable) {
    const description = errorMessage('access_denied', request.language);
    await provider.interactionResult(
      request.raw,
      reply.raw,
      { error: 'access_denied', error_description: description },
      { mergeWithLastSubmission: false },
    );
    await recordAudit(ctx.db, ctx.clock, {
      action: 'platform_sign_in_denied',
      actorId: session.user_id,
      targetId: session.user_id,
      ip: request.ip,
      details: { platformId: platform.id },
    });
    return reply.redirect(
      oauthErrorUrl(publicUrl, {
        error: 'access_denied',
        error_description: description,
        platform: platform.name,
        platform_url: platform.url,
      }),
      303,
    );
  }

  const login: NonNullable<InteractionResults['login']> = {
    accountId: session.user_id,
    amr: session.mfa_verified_at ? ['pwd', 'mfa'] : ['pwd'],
    // When the portal sign-in happened (never ahead of the provider's own clock).
    ts: Math.floor(Math.min(session.created_at, Date.now()) / 1000),
  };
  const requested = stringParam(interaction.params.scope)
    .split(' ')
    .filter((scope) => SCOPES.includes(scope));

  if (platform.first_party === 1) {
    return finish({
      login,
      consent: {
        grantId: await saveGrant(deps, interaction, login.accountId, clientId, requested),
      },
    });
  }
  if (interaction.prompt.name !== 'consent') return finish({ login });

  const token = consentToken(ctx.secret, uid, session);
  if (!form) {
    const uiLocales = stringParam(interaction.params.ui_locales);
    const language = uiLocales
      ? pageLanguage(uiLocales, request.headers['accept-language'])
      : request.language;
    const missing = stringList(interaction.prompt.details.missingOIDCScope) ?? requested;
    const action = `${OIDC_PREFIX}/interaction/${encodeURIComponent(uid)}/consent`;
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(consentPage(language, platform.name, missing, action, token));
  }
  if (!safeEqual(form.token, token)) {
    return reply.redirect(oauthErrorUrl(publicUrl, { error: 'invalid_request' }), 303);
  }
  if (form.decision !== 'allow') {
    return finish({ error: 'access_denied', error_description: 'the user refused' });
  }
  return finish({
    login,
    consent: { grantId: await saveGrant(deps, interaction, login.accountId, clientId, requested) },
  });
}

/** The grant of this platform for this user, extended with what the request asks for. */
async function saveGrant(
  deps: InteractionDeps,
  interaction: Interaction,
  accountId: string,
  clientId: string,
  scopes: string[],
): Promise<string> {
  const { Grant } = deps.provider;
  let grant = interaction.grantId ? await Grant.find(interaction.grantId) : undefined;
  if (!grant || grant.accountId !== accountId || grant.clientId !== clientId) {
    grant = new Grant({ accountId, clientId });
  }
  if (scopes.length) grant.addOIDCScope(scopes.join(' '));
  const claims = stringList(interaction.prompt.details.missingOIDCClaims);
  if (claims?.length) grant.addOIDCClaims(claims);
  return grant.save();
}
