import { useQuery } from '@tanstack/react-query';
import { supportSchema } from '@hygie/domain';
import { useServices } from '../../../lib/services';

/** GET /api/support: the operator's support contact (public; the services' dialog reads it too). */
export function useSupportContact() {
  const { api } = useServices();
  return useQuery({
    queryKey: ['support'],
    queryFn: ({ signal }) => api.get('/support', supportSchema, signal),
    staleTime: 5 * 60_000,
  });
}
