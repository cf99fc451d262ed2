import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useServices } from '../../../lib/services';
import { USERS_QUERY_KEY } from './users';

export type AccountAction = 'validate' | 'reject' | 'unlock';

/**
 * POST /api/admin/users/:id/validate, /reject (a pending professional; the user is told by
 * e-mail) or /unlock (a locked account).
 */
export function useAccountAction() {
  const { api } = useServices();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, action }: { userId: string; action: AccountAction }) =>
      api.post(`/admin/users/${encodeURIComponent(userId)}/${action}`, {}),
    onSettled: () => queryClient.invalidateQueries({ queryKey: USERS_QUERY_KEY }),
  });
}
