import { useMutation, useQuery } from '@tanstack/react-query';
import { assuranceLevelResultSchema, platformNameSchema } from '@hygie/domain';
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

const MAX_CLIENT_ID_LENGTH = 64;

/** GET /api/platforms/by-client/{clientId}: the registered name of the platform asking. */
export function usePlatformName(clientId: string | null) {
  const { api } = useServices();
  const id = clientId && clientId.length <= MAX_CLIENT_ID_LENGTH ? clientId : null;
  return useQuery({
    queryKey: ['platform-name', id],
    queryFn: ({ signal }) =>
      api.get(`/platforms/by-client/${encodeURIComponent(id ?? '')}`, platformNameSchema, signal),
    enabled: id !== null,
    retry: false,
  });
}
