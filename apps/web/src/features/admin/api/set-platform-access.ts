import { useMutation, useQueryClient } from '@tanstack/react-query';
import { platformAccessSchema } from '@hygie/domain';
import { useServices } from '../../../lib/services';
import { USERS_QUERY_KEY } from './users';

export interface PlatformAccessChange {
  userId: string;
  platformId: string;
  enabled: boolean;
}

/** PUT /api/admin/users/:id/platforms/:platformId {enabled}. */
export function useSetPlatformAccess() {
  const { api } = useServices();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, platformId, enabled }: PlatformAccessChange) =>
      api.request(
        'PUT',
        `/admin/users/${encodeURIComponent(userId)}/platforms/${encodeURIComponent(platformId)}`,
        { body: { enabled }, schema: platformAccessSchema },
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: USERS_QUERY_KEY }),
  });
}
