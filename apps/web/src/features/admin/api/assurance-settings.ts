import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { assuranceSettingsSchema, type RequiredLevel } from '@hygie/domain';
import { useServices } from '../../../lib/services';

export const ASSURANCE_SETTINGS_QUERY_KEY = ['admin', 'settings', 'assurance'] as const;

/** GET /api/admin/settings/assurance: the account area's minimum level and the level mapping. */
export function useAssuranceSettings() {
  const { api } = useServices();
  return useQuery({
    queryKey: ASSURANCE_SETTINGS_QUERY_KEY,
    queryFn: ({ signal }) => api.get('/admin/settings/assurance', assuranceSettingsSchema, signal),
  });
}

/** PUT /api/admin/settings/assurance {accountMinimumLevel}: null, no minimum. */
export function useUpdateAccountMinimumLevel() {
  const { api } = useServices();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (accountMinimumLevel: RequiredLevel | null) =>
      api.request('PUT', '/admin/settings/assurance', {
        body: { accountMinimumLevel },
        schema: assuranceSettingsSchema,
      }),
    onSuccess: (saved) => queryClient.setQueryData(ASSURANCE_SETTINGS_QUERY_KEY, saved),
  });
}
