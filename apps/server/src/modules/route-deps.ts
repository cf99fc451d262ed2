import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import type { RequireSession } from '../plugins/authenticate.js';
import type { CookiePolicy } from '../plugins/cookies.js';
import type { SessionWithUser } from './sessions/repository.js';

/** What every feature's routes receive from the composition root. */
export interface RouteDeps {
  ctx: AppContext;
  cookies: CookiePolicy;
  requireSession: RequireSession;
  /** A complete session of an admin, else 401/403 (every admin route calls it). */
  requireAdmin: (request: FastifyRequest) => Promise<SessionWithUser>;
  /** Wakes the outbox dispatcher after a message was queued. */
  nudgeOutbox: () => void;
}
