import { useMutation } from '@tanstack/react-query';
import { assuranceLevelResultSchema } from '@hygie/domain';
import { stepUpWithPasskey } from '../../../lib/biometrics';
import { useServices } from '../../../lib/services';

/** POST /api/me/assurance/totp {code}: an authenticator-app code raises the session. */
export function useTotpStepUp() {
  const { api } = useServices();
  return useMutation({
    mutationFn: (code: string) =>
      api.post('/me/assurance/totp', { code }, assuranceLevelResultSchema),
  });
}

/** Options → the browser's passkey prompt → POST /api/me/assurance/passkey. */
export function usePasskeyStepUp() {
  const { api } = useServices();
  return useMutation({ mutationFn: () => stepUpWithPasskey(api) });
}
