import { safeTargetUri } from '@hygie/domain';
import type { AppContext } from '../../context.js';
import { isRegisteredPostLogoutUri } from '../platforms/service.js';

export { endPortalAndProviderSessions } from './portal.js';

/**
 * Where `/api/logout` sends the browser: `target_uri` when it has the API's origin or is exactly a
 * post-logout URI a platform registered; otherwise (dropped) the sign-in page.
 */
export async function logoutTarget(ctx: AppContext, target: string | undefined): Promise<string> {
  const sameOrigin = safeTargetUri(target, ctx.config.publicUrl.origin);
  if (sameOrigin) return sameOrigin;
  if (target && target.length <= 2048 && (await isRegisteredPostLogoutUri(ctx, target))) {
    return target;
  }
  return new URL('/security/login', ctx.config.publicUrl).href;
}
