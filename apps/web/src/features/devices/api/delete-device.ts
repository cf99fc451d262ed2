import { useMutation, useQueryClient } from '@tanstack/react-query';
import { okSchema } from '@hygie/domain';
import { useServices } from '../../../lib/services';
import { DEVICES_QUERY_KEY } from './devices';

/** DELETE /api/devices/:id, then the list is loaded again. */
export function useDeleteDevice() {
  const { api } = useServices();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api.request('DELETE', `/devices/${encodeURIComponent(id)}`, { schema: okSchema }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: DEVICES_QUERY_KEY }),
  });
}
