import { useQuery } from '@tanstack/react-query';
import { serviceListSchema } from '@hygie/domain';
import { useServices as useAppServices } from '../../../lib/services';

export const SERVICES_QUERY_KEY = ['services'] as const;

/** GET /api/services: every platform, whether the user may use it and what they can do about it. */
export function usePlatformServices() {
  const { api } = useAppServices();
  return useQuery({
    queryKey: SERVICES_QUERY_KEY,
    queryFn: ({ signal }) => api.get('/services', serviceListSchema, signal),
  });
}
