import { useMutation, useQueryClient } from '@tanstack/react-query';
import { settingSchema, type SettingKey } from '@hygie/domain';
import { useServices } from '../../../lib/services';
import { SETTINGS_QUERY_KEY } from './settings';

/** DELETE /api/admin/settings/:key: back to the default value. */
export function useResetSetting() {
  const { api } = useServices();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (key: SettingKey) =>
      api.request('DELETE', `/admin/settings/${key}`, { schema: settingSchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SETTINGS_QUERY_KEY }),
  });
}
