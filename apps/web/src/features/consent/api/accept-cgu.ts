import { useMutation } from '@tanstack/react-query';
import { currentUserSchema } from '@hygie/domain';
import { useServices } from '../../../lib/services';
import { useCompleteSignIn } from '../../../lib/sign-in';

/**
 * POST /api/cgu/accept {version}: the user once sign-in is complete, else the next stage's code.
 * A version other than the one in force is refused (validation_error on `version`).
 */
export function useAcceptCgu() {
  const { api } = useServices();
  const complete = useCompleteSignIn();
  return useMutation({
    mutationFn: (version: string) => api.post('/cgu/accept', { version }, currentUserSchema),
    onSuccess: complete,
  });
}
