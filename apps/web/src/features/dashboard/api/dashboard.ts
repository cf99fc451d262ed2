import { useQuery } from '@tanstack/react-query';
import { dashboardSchema } from '@hygie/domain';
import { useServices } from '../../../lib/services';

/** GET /api/dashboard: what needs the user's attention. */
export function useDashboard() {
  const { api } = useServices();
  return useQuery({
    queryKey: ['dashboard'],
    queryFn: ({ signal }) => api.get('/dashboard', dashboardSchema, signal),
  });
}
