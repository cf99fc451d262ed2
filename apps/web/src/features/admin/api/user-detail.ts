import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { UserAction } from '@hygie/domain';
import { adminUserDetailSchema, okSchema } from '@hygie/domain';
import { useServices } from '../../../lib/services';
import { USERS_QUERY_KEY } from './users';

const detailKey = (userId: string) => [...USERS_QUERY_KEY, 'detail', userId] as const;

/** GET /api/admin/users/:id: one user in detail. */
export function useUserDetail(userId: string) {
  const { api } = useServices();
  return useQuery({
    queryKey: detailKey(userId),
    queryFn: ({ signal }) =>
      api.request('GET', `/admin/users/${encodeURIComponent(userId)}`, {
        schema: adminUserDetailSchema,
        signal,
      }),
  });
}

/** What an admin does to an account: an action, a role, or the deletion. */
export type UserChange = UserAction | 'make-admin' | 'remove-admin' | 'delete';

/**
 * POST /api/admin/users/:id/<action>, POST …/set-role, DELETE /api/admin/users/:id. The user
 * list and this user's detail are read again afterwards.
 */
export function useUserChange(userId: string) {
  const { api } = useServices();
  const queryClient = useQueryClient();
  const path = `/admin/users/${encodeURIComponent(userId)}`;
  return useMutation({
    mutationFn: (change: UserChange) => {
      if (change === 'delete') return api.request('DELETE', path, { schema: okSchema });
      if (change === 'make-admin' || change === 'remove-admin') {
        const role = change === 'make-admin' ? 'admin' : 'user';
        return api.post(`${path}/set-role`, { role }, okSchema);
      }
      return api.post(`${path}/${change}`, {}, okSchema);
    },
    onSuccess: (_result, change) =>
      change === 'delete'
        ? queryClient.removeQueries({ queryKey: detailKey(userId) })
        : queryClient.invalidateQueries({ queryKey: detailKey(userId) }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: USERS_QUERY_KEY, exact: false }),
  });
}
