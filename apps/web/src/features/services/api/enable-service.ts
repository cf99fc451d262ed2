import { useMutation, useQueryClient } from '@tanstack/react-query';
import { platformAccessSchema } from '@hygie/domain';
import { useServices } from '../../../lib/services';
import { SERVICES_QUERY_KEY } from './services';

/** POST /api/services/:id/enable: enables an on-request platform, or asks an admin for it. */
export function useEnableService() {
  const { api } = useServices();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api.post(`/services/${encodeURIComponent(id)}/enable`, {}, platformAccessSchema),
    onSettled: () => queryClient.invalidateQueries({ queryKey: SERVICES_QUERY_KEY }),
  });
}
