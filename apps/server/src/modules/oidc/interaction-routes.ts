import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Interaction, InteractionResults } from 'oidc-provider';
import type Provider from 'oidc-provider';
import { errors } from 'oidc-provider';
import type { AppContext } from '../../context.js';
import type { RequireSession } from '../../plugins/authenticate.js';
import type { CookiePolicy } from '../../plugins/cookies.js';
import { closeSession, requireSecondFactor } from '../sessions/service.js';
import { secondFactorStage } from '../auth/stages/registry.js';
import { meetsLevel } from '@hygie/domain';
import { levelOfSession } from '../assurance/service.js';
import { minimumLevelOf, platformAccessForClient } from '../platforms/service.js';
import { levelNeeded } from './assurance.js';
import { contentSecurityPolicy } from '../../plugins/security-headers.js';
import type { InteractionInput } from './interaction.js';
import { authenticatedAt, decideInteraction, freshEnough, interactionUrl } from './interaction.js';
import { supportedLocale } from './pages.js';
import { completeSession } from './portal.js';
import { oauthErrorUrl } from './provider.js';

export interface InteractionDeps {
  ctx: AppContext;
  provider: Provider;
  requireSession: RequireSession;
  cookies: CookiePolicy;
}

/**
 * Runs an interaction the provider started (GET, and the consent form's POST): sends the browser
 * to sign in when the portal session is not complete, else ends the interaction as decided — a
 * refused user lands on /oauth-error.
 */
export async function runInteraction(
  deps: InteractionDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  uid: string,
  form?: InteractionInput['form'],
): Promise<FastifyReply> {
  const { ctx, provider, requireSession, cookies } = deps;
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

  let session = await completeSession(requireSession, request);
  let staleUser: string | undefined;
  if (session && !freshEnough(interaction, authenticatedAt(session), ctx.clock.now())) {
    // prompt=login, or a max_age the portal sign-in is older than: the user signs in again. The
    // stale portal session ends (its user is asked for the password anew, pre-filled below).
    const token = request.cookies[cookies.sessionCookie];
    if (token) await closeSession(ctx, token);
    cookies.clearSession(reply);
    staleUser = session.user.email;
    session = null;
  }
  if (session) {
    const clientId =
      typeof interaction.params.client_id === 'string' ? interaction.params.client_id : '';
    // A user the access rule keeps out is refused below (decideInteraction), never stepped up.
    const access = await platformAccessForClient(ctx, clientId, session.user_id);
    const needed = access?.usable
      ? levelNeeded(minimumLevelOf(access.platform), interaction.params)
      : null;
    const level = await levelOfSession(ctx, session);
    if (needed && !meetsLevel(level, needed)) {
      const target = interactionUrl(publicUrl, uid);
      if (needed === 'low' && level === 'one_factor') {
        // Two factors asked for; a trusted browser skipped the second one. The session goes back
        // to that stage (the browser stays trusted), and comes back here once it is passed.
        await requireSecondFactor(ctx.db, session.id, secondFactorStage.code);
        const mfa = new URL('/security/mfa', publicUrl);
        mfa.searchParams.set('target_uri', target);
        return reply.redirect(mfa.href, 303);
      }
      // A higher level: the step-up screen offers the user's means that reach it (or says how to
      // set one up), then comes back here; its cancel ends the interaction (`/abort`).
      const stepUp = new URL('/security/step-up', publicUrl);
      stepUp.searchParams.set('level', needed);
      stepUp.searchParams.set('target_uri', target);
      // The screen names the platform asking, from the registry (never from the request).
      stepUp.searchParams.set('client_id', clientId);
      return reply.redirect(stepUp.href, 303);
    }
  }
  if (!session) {
    const login = new URL('/security/login', publicUrl);
    login.searchParams.set('target_uri', interactionUrl(publicUrl, uid));
    // The platform's hints: who is signing in (pre-filled) and in which language.
    const { ui_locales: locales } = interaction.params;
    const hint = interaction.params.login_hint ?? staleUser;
    if (typeof hint === 'string' && hint.length <= 255) login.searchParams.set('username', hint);
    const language = typeof locales === 'string' ? supportedLocale(locales) : undefined;
    if (language) login.searchParams.set('l', language);
    return reply.redirect(login.href, 303);
  }

  const outcome = await decideInteraction(ctx, provider, {
    interaction,
    session,
    language: request.language,
    acceptLanguage: request.headers['accept-language'],
    ip: request.ip,
    form,
  });
  const end = (result: InteractionResults) =>
    provider.interactionResult(request.raw, reply.raw, result, { mergeWithLastSubmission: false });
  switch (outcome.kind) {
    case 'invalid_client':
      return reply.redirect(oauthErrorUrl(publicUrl, { error: 'invalid_client' }), 303);
    case 'forged':
      return reply.redirect(oauthErrorUrl(publicUrl, { error: 'invalid_request' }), 303);
    case 'denied':
      await end({ error: 'access_denied', error_description: outcome.description });
      return reply.redirect(
        oauthErrorUrl(publicUrl, {
          error: 'access_denied',
          error_description: outcome.description,
          // The page names the platform from the registry, by its client id (never from its
          // own address, which anyone can write).
          client_id: outcome.clientId,
        }),
        303,
      );
    case 'consent_page':
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('content-security-policy', contentSecurityPolicy([], [outcome.formTarget]))
        .send(outcome.html);
    case 'finish':
      return reply.redirect(await end(outcome.result), 303);
  }
}

/**
 * The step-up screen's cancel: the interaction ends with `unmet_authentication_requirements`
 * (OpenID Connect Core §3.1.2.6) back to the platform — never a sign-in at a lower level.
 */
export async function abortInteraction(
  deps: InteractionDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  uid: string,
): Promise<FastifyReply> {
  const { ctx, provider } = deps;
  let interaction: Interaction | undefined;
  try {
    interaction = await provider.interactionDetails(request.raw, reply.raw);
  } catch (err) {
    if (!(err instanceof errors.InvalidRequest)) throw err;
  }
  if (interaction?.uid !== uid) {
    return reply.redirect(
      oauthErrorUrl(ctx.config.publicUrl, {
        error: 'invalid_request',
        error_description: 'the sign-in request expired: start again from the platform',
      }),
      303,
    );
  }
  const location = await provider.interactionResult(
    request.raw,
    reply.raw,
    {
      error: 'unmet_authentication_requirements',
      error_description: 'the sign-in did not reach the level of assurance the platform requires',
    },
    { mergeWithLastSubmission: false },
  );
  return reply.redirect(location, 303);
}
