import { useQuery } from '@tanstack/react-query';
import type { MfaData } from '@hygie/domain';
import { useServices } from '../../../lib/services';

export const MFA_QUERY_KEY = ['mfa'] as const;

/**
 * GET /api/mfa: the providers and masked hints of the pending second factor. (Typed with the
 * domain's MfaData; the schema module is not imported on this sign-in-path page, see docs/web.md.)
 */
export function useMfaData(enabled: boolean) {
  const { api } = useServices();
  return useQuery({
    queryKey: MFA_QUERY_KEY,
    queryFn: ({ signal }) => api.get<MfaData>('/mfa', undefined, signal),
    enabled,
    staleTime: Infinity,
  });
}
