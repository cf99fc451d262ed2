import type { AppContext } from '../context.js';
import type { RequireSession } from '../plugins/authenticate.js';
import type { CookiePolicy } from '../plugins/cookies.js';

/** What every feature's routes receive from the composition root. */
export interface RouteDeps {
  ctx: AppContext;
  cookies: CookiePolicy;
  requireSession: RequireSession;
  /** Wakes the outbox dispatcher after a message was queued. */
  nudgeOutbox: () => void;
}
