import { useQuery } from '@tanstack/react-query';
import { settingListSchema } from '@hygie/domain';
import { useServices } from '../../../lib/services';

export const SETTINGS_QUERY_KEY = ['admin', 'settings'] as const;

/** GET /api/admin/settings: every setting with its value, default, bounds and last change. */
export function useSettings() {
  const { api } = useServices();
  return useQuery({
    queryKey: SETTINGS_QUERY_KEY,
    queryFn: ({ signal }) => api.get('/admin/settings', settingListSchema, signal),
  });
}
