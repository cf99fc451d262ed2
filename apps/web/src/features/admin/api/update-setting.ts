import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { settingSchema, type SettingKey } from '@hygie/domain';
import { useServices } from '../../../lib/services';
import { SETTINGS_QUERY_KEY } from './settings';

/** PUT /api/admin/settings/:key {value} (null disables); 400 settings_update_failed {min, max}. */
export function useUpdateSetting() {
  const { t } = useTranslation();
  const { api, notifications } = useServices();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ key, value }: { key: SettingKey; value: number | null }) =>
      api.request('PUT', `/admin/settings/${key}`, { body: { value }, schema: settingSchema }),
    // Said here, not by the row that asked: the row is remounted when the list comes back with a
    // new modification date, and a second save sent meanwhile would otherwise be confirmed by no
    // one (a callback given to mutate() does not run once its component is gone).
    onSuccess: () => {
      notifications.notify(t('common:messages.modified'), 'success');
      return queryClient.invalidateQueries({ queryKey: SETTINGS_QUERY_KEY });
    },
  });
}
