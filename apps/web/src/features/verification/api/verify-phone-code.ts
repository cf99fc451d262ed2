import { useMutation } from '@tanstack/react-query';
import { currentUserSchema } from '@hygie/domain';
import { useServices } from '../../../lib/services';
import { useCompleteSignIn } from '../../../lib/sign-in';

/**
 * POST /api/verification/mobile-phone/verify {code}: the user once sign-in is complete, else the
 * next stage's code (the guard moves on).
 */
export function useVerifyPhoneCode() {
  const { api } = useServices();
  const complete = useCompleteSignIn();
  return useMutation({
    mutationFn: (code: string) =>
      api.post('/verification/mobile-phone/verify', { code }, currentUserSchema),
    onSuccess: complete,
  });
}
