import { useMutation } from '@tanstack/react-query';
import { currentUserSchema, type MfaProvider } from '@hygie/domain';
import { useServices } from '../../../lib/services';
import { useCompleteSignIn } from '../../../lib/sign-in';

export interface MfaVerifyInput {
  provider: MfaProvider;
  code: string;
  /** "Don't ask again on this device". */
  trustDevice: boolean;
}

/**
 * POST /api/mfa/verify. The user when sign-in is complete; else the next stage's code, which
 * moves the account state (the guard shows the next screen).
 */
export function useVerifyMfaCode() {
  const { api } = useServices();
  const complete = useCompleteSignIn();
  return useMutation({
    mutationFn: (input: MfaVerifyInput) => api.post('/mfa/verify', input, currentUserSchema),
    onSuccess: complete,
  });
}
