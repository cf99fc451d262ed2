import { useMutation } from '@tanstack/react-query';
import { currentUserMiniSchema, type CurrentUser, type LoginInput } from '@hygie/domain';
import { useServices } from '../../../lib/services';
import { useCompleteSignIn } from '../../../lib/sign-in';

/**
 * POST /api/login. On success the sign-in is complete (lib/sign-in: a same-origin `target_uri`
 * is followed, else LOGGED_IN and the guard sends the user on). A pending-stage code moves the
 * account state, and the guard shows its screen.
 */
export function useLogin() {
  const { api } = useServices();
  const complete = useCompleteSignIn();
  return useMutation({
    mutationFn: (input: LoginInput) => api.post('/login', input, currentUserMiniSchema),
    onSuccess: (user: CurrentUser) => complete(user),
  });
}
