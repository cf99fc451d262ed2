import { useMutation, useQueryClient } from '@tanstack/react-query';
import { profileSchema, type ProfileUpdate } from '@hygie/domain';
import { ME_QUERY_KEY } from '../../../lib/current-user';
import { useServices } from '../../../lib/services';
import { PROFILE_QUERY_KEY } from './profile';

/** PATCH /api/profile: the edited person fields (400 validation_error lists the refused ones). */
export function useUpdateProfile() {
  const { api } = useServices();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ProfileUpdate) =>
      api.request('PATCH', '/profile', { body: input, schema: profileSchema }),
    onSuccess: (profile) => {
      queryClient.setQueryData(PROFILE_QUERY_KEY, profile);
      void queryClient.invalidateQueries({ queryKey: ME_QUERY_KEY });
    },
  });
}
