import { useQuery } from '@tanstack/react-query';
import { mfaDataAnswer } from '../../../lib/answer-schemas';
import { useServices } from '../../../lib/services';

export const MFA_QUERY_KEY = ['mfa'] as const;

/**
 * GET /api/mfa: the providers and masked hints of the pending second factor. (Checked with the
 * light copy of the domain's schema: its module is not imported on this sign-in-path page, see
 * docs/web.md.)
 */
export function useMfaData(enabled: boolean) {
  const { api } = useServices();
  return useQuery({
    queryKey: MFA_QUERY_KEY,
    queryFn: ({ signal }) => api.get('/mfa', mfaDataAnswer, signal),
    enabled,
    staleTime: Infinity,
  });
}
