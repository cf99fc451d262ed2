import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { settingSchema, type SettingKey } from '@hygie/domain';
import { useServices } from '../../../lib/services';
import { SETTINGS_QUERY_KEY } from './settings';

/** DELETE /api/admin/settings/:key: back to the default value. */
export function useResetSetting() {
  const { t } = useTranslation();
  const { api, notifications } = useServices();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (key: SettingKey) =>
      api.request('DELETE', `/admin/settings/${key}`, { schema: settingSchema }),
    // Said here, not by the row that asked: the row is remounted when the list comes back with a
    // new modification date, and a second save sent meanwhile would otherwise be confirmed by no
    // one (a callback given to mutate() does not run once its component is gone).
    onSuccess: () => {
      notifications.notify(t('admin:settings.resetDone'), 'success');
      return queryClient.invalidateQueries({ queryKey: SETTINGS_QUERY_KEY });
    },
  });
}
