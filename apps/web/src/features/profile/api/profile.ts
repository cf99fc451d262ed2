import { useQuery } from '@tanstack/react-query';
import { profileSchema } from '@hygie/domain';
import { useServices } from '../../../lib/services';

export const PROFILE_QUERY_KEY = ['profile'] as const;

/** GET /api/profile: every person field of the signed-in user. */
export function useProfile() {
  const { api } = useServices();
  return useQuery({
    queryKey: PROFILE_QUERY_KEY,
    queryFn: ({ signal }) => api.get('/profile', profileSchema, signal),
  });
}
