import { useMutation } from '@tanstack/react-query';
import { currentUserSchema } from '@hygie/domain';
import { useServices } from '../../../lib/services';
import { useCompleteSignIn } from '../../../lib/sign-in';

/**
 * POST /api/cgu/accept {version, hash}: the version and the hash of the exact text read. The user
 * once sign-in is complete, else the next stage's code; another text than the one in force is
 * refused (409 terms_changed).
 */
export function useAcceptCgu() {
  const { api } = useServices();
  const complete = useCompleteSignIn();
  return useMutation({
    mutationFn: (terms: { version: string; hash: string }) =>
      api.post('/cgu/accept', terms, currentUserSchema),
    onSuccess: complete,
  });
}
