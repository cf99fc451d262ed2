import type { FastifyRequest } from 'fastify';
import { isErrorCode } from '@hygie/domain';
import type { AppContext } from '../context.js';
import { AppError } from '../lib/app-error.js';
import { assertAccountLevel, heldToAccountMinimum } from '../modules/assurance/service.js';
import type { SessionWithUser } from '../modules/sessions/repository.js';
import { COMPLETE, currentSession, mfaData } from '../modules/sessions/service.js';
import type { CookiePolicy } from './cookies.js';

export type RequireSession = (
  request: FastifyRequest,
  allowedStages?: readonly string[],
) => Promise<SessionWithUser>;

/** What most routes allow: a complete session (one array for every call). */
const ONLY_COMPLETE: readonly string[] = [COMPLETE];

/**
 * Returns the guard every authenticated route calls: no session → 401 `not_logged_in`; a session
 * whose pending stage is not one the route finishes → that stage's code (a half-open session
 * reaches nothing else).
 */
export function sessionGuard(ctx: AppContext, cookies: CookiePolicy): RequireSession {
  return async (request, allowedStages = ONLY_COMPLETE) => {
    // Fastify builds the route's options anew at each read: once here.
    const route = request.routeOptions;
    // The document says which routes need no session (config.auth, plugins/openapi.ts): a route
    // declared public that requires one is a bug the suites must see, not a silent wrong contract.
    if (route.config.auth === 'public') {
      throw new Error(`${route.url ?? '?'} is declared public but requires a session`);
    }
    const session = await currentSession(ctx, request, request.cookies[cookies.sessionCookie]);
    if (!session) throw new AppError('not_logged_in');
    if (!allowedStages.includes(session.stage)) {
      if (session.stage === 'two_factor_authentication_required') {
        throw new AppError(session.stage, mfaData({ ...session.user, id: session.user_id }));
      }
      throw new AppError(isErrorCode(session.stage) ? session.stage : 'not_logged_in');
    }
    // The account area's minimum level (a setting, off by default): one settings read, on its
    // routes only — never on the session lookup itself.
    if (heldToAccountMinimum(request.method, route.url ?? '')) {
      await assertAccountLevel(ctx, session);
    }
    return session;
  };
}
