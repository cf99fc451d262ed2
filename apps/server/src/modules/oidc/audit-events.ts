import type { IncomingMessage } from 'node:http';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import type { KoaContextWithOIDC } from 'oidc-provider';
import type { AppContext } from '../../context.js';
import { recordAudit } from '../audit/service.js';
import type { AuditEvent } from '../audit/service.js';

/** How the provider details a refresh token that came back after it was used (its error_detail). */
const REUSE_DETAILS = new Set([
  'refresh token already used',
  // The adapter's refusal when a parallel request consumed the token first (adapter.ts).
  'grant already used',
]);

/** Why the provider revoked a grant, by the route it was serving. */
function revocationReason(route: string | undefined): 'token_revoked' | 'logout' | 'reuse' {
  if (route === 'revocation') return 'token_revoked';
  if (route === 'token') return 'reuse';
  return 'logout';
}

/** The account the provider request is about: its token's, code's or session's. */
function accountOf(koa: KoaContextWithOIDC): string | null {
  const { entities, session } = koa.oidc;
  return (
    entities.RefreshToken?.accountId ??
    entities.AccessToken?.accountId ??
    entities.AuthorizationCode?.accountId ??
    entities.Grant?.accountId ??
    session?.accountId ??
    null
  );
}

/**
 * The provider's own security events in the audit trail: a grant it revokes (a platform revoking
 * a token, a sign-out, a replay) and a refresh token presented again after its rotation. They are
 * written before the provider's answer leaves (each request waits for its events).
 */
export function auditProviderEvents(
  ctx: AppContext,
  provider: Provider,
  requests: WeakMap<IncomingMessage, FastifyRequest>,
  log: FastifyBaseLogger,
): void {
  const pending = new WeakMap<object, Promise<void>[]>();
  const record = (koa: KoaContextWithOIDC, event: AuditEvent) => {
    const written = recordAudit(ctx.db, ctx.clock, {
      ...event,
      ip: requests.get(koa.req)?.ip ?? null,
    }).catch((err: unknown) => log.error({ err, action: event.action }, 'audit: not recorded'));
    pending.set(koa, [...(pending.get(koa) ?? []), written]);
  };
  provider.use(async (koa, next) => {
    await next();
    await Promise.all(pending.get(koa) ?? []);
  });

  provider.on('grant.revoked', (koa, grantId) => {
    log.info({ grantId }, 'oidc grant revoked');
    const accountId = accountOf(koa);
    if (!accountId) return;
    const reason = revocationReason(koa.oidc.route);
    record(koa, {
      action: 'oidc_grant_revoked',
      actorId: reason === 'logout' ? accountId : null,
      targetId: accountId,
      details: { clientId: koa.oidc.client?.clientId ?? null, reason },
    });
  });

  provider.on('grant.error', (koa, err) => {
    const refreshToken = koa.oidc.entities.RefreshToken;
    if (!refreshToken || !REUSE_DETAILS.has(err.error_detail ?? '')) return;
    record(koa, {
      action: 'refresh_token_reused',
      targetId: refreshToken.accountId,
      details: { clientId: refreshToken.clientId },
    });
  });
}
