import { useMutation, useQueryClient } from '@tanstack/react-query';
import { settingSchema, type SettingKey } from '@hygie/domain';
import { useServices } from '../../../lib/services';
import { SETTINGS_QUERY_KEY } from './settings';

/** PUT /api/admin/settings/:key {value} (null disables); 400 settings_update_failed {min, max}. */
export function useUpdateSetting() {
  const { api } = useServices();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ key, value }: { key: SettingKey; value: number | null }) =>
      api.request('PUT', `/admin/settings/${key}`, { body: { value }, schema: settingSchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SETTINGS_QUERY_KEY }),
  });
}
