import { useQuery } from '@tanstack/react-query';
import { pendingIdentitySchema, type PendingIdentity } from '@hygie/domain';
import { ApiError } from '../../../lib/api-client';
import { useServices } from '../../../lib/services';

export type { PendingIdentity };

/**
 * GET /api/idp/pending: what the provider asserted of the identity waiting in this browser (the
 * sealed cookie), to pre-fill the registration; null when none waits (404). Only asked for when
 * the page was reached from the login page's link mode (`?idp=<provider>`).
 */
export function usePendingIdentity(provider: string | null) {
  const { api } = useServices();
  return useQuery({
    queryKey: ['idp-pending', provider],
    queryFn: async ({ signal }): Promise<PendingIdentity | null> => {
      try {
        return await api.get('/idp/pending', pendingIdentitySchema, signal);
      } catch (err) {
        if (err instanceof ApiError && err.code === 'not_found') return null;
        throw err;
      }
    },
    enabled: provider !== null,
    retry: false,
  });
}
