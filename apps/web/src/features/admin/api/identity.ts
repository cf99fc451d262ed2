import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { profileSchema } from '@hygie/domain';
import { useServices } from '../../../lib/services';
import { USERS_QUERY_KEY } from './users';

const identityKey = (userId: string) => ['admin', 'identity', userId] as const;

/** GET /api/admin/users/:id/identity: the user's profile, to correct the identity. */
export function useUserIdentity(userId: string) {
  const { api } = useServices();
  return useQuery({
    queryKey: identityKey(userId),
    queryFn: ({ signal }) =>
      api.get(`/admin/users/${encodeURIComponent(userId)}/identity`, profileSchema, signal),
  });
}

/** PATCH /api/admin/users/:id/identity: an admin corrects names, birth traits or identifier (audited). */
export function useCorrectIdentity(userId: string) {
  const { api } = useServices();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      api.request('PATCH', `/admin/users/${encodeURIComponent(userId)}/identity`, {
        body,
        schema: profileSchema,
      }),
    onSuccess: (profile) => {
      queryClient.setQueryData(identityKey(userId), profile);
      void queryClient.invalidateQueries({ queryKey: USERS_QUERY_KEY });
    },
  });
}
