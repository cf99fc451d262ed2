import { useQuery } from '@tanstack/react-query';
import { supportSchema } from '@hygie/domain';
import { useServices } from '../../../lib/services';

/** GET /api/support: the support contact from configuration (loaded when the dialog opens). */
export function useSupport(enabled: boolean) {
  const { api } = useServices();
  return useQuery({
    queryKey: ['support'],
    queryFn: ({ signal }) => api.get('/support', supportSchema, signal),
    enabled,
    staleTime: 5 * 60_000,
  });
}
