import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { myConsentListSchema, okSchema } from '@hygie/domain';
import { useServices } from '../../../lib/services';

export const CONSENTS_QUERY_KEY = ['me', 'consents'] as const;

/** GET /api/me/consents: the platforms I gave access to. */
export function useMyConsents() {
  const { api } = useServices();
  return useQuery({
    queryKey: CONSENTS_QUERY_KEY,
    queryFn: ({ signal }) => api.get('/me/consents', myConsentListSchema, signal),
  });
}

/** DELETE /api/me/consents/:clientId, then the list is loaded again. */
export function useRemoveConsent() {
  const { api } = useServices();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (clientId: string) =>
      api.request('DELETE', `/me/consents/${encodeURIComponent(clientId)}`, { schema: okSchema }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: CONSENTS_QUERY_KEY }),
  });
}
