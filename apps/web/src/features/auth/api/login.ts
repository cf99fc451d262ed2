import { useMutation } from '@tanstack/react-query';
import { AccountState, currentUserSchema, type CurrentUser, type LoginInput } from '@hygie/domain';
import { browser } from '../../../lib/browser';
import { ME_QUERY_KEY } from '../../../lib/current-user';
import { safeTargetUri } from '../../../lib/safe-redirect';
import { useServices } from '../../../lib/services';

/**
 * POST /api/login. On success: follow a same-origin `target_uri` (a full navigation, e.g. back to
 * an OIDC interaction), else become LOGGED_IN and let the guard send the user on (to `redirect`
 * or home). A pending-stage code moves the account state, and the guard shows its screen.
 */
export function useLogin(targetUri: string | null) {
  const { api, queryClient, accountState } = useServices();
  return useMutation({
    mutationFn: (input: LoginInput) => api.post('/login', input, currentUserSchema),
    onSuccess: (user: CurrentUser) => {
      const target = safeTargetUri(targetUri, window.location.origin);
      if (target) {
        browser.assign(target);
        return;
      }
      queryClient.setQueryData(ME_QUERY_KEY, user);
      accountState.set({ state: AccountState.LOGGED_IN });
    },
  });
}
