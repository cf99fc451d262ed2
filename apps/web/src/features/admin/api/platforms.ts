import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PlatformCreateInput, PlatformUpdateInput } from '@hygie/domain';
import { adminPlatformListSchema, adminPlatformSchema, createdPlatformSchema } from '@hygie/domain';
import { useServices } from '../../../lib/services';

export const PLATFORMS_QUERY_KEY = ['admin', 'platforms'] as const;

/** GET /api/admin/platforms: the registered platforms (OIDC clients). */
export function usePlatforms() {
  const { api } = useServices();
  return useQuery({
    queryKey: PLATFORMS_QUERY_KEY,
    queryFn: ({ signal }) => api.get('/admin/platforms', adminPlatformListSchema, signal),
  });
}

/** POST /api/admin/platforms: the answer carries the client secret, shown this once. */
export function useCreatePlatform() {
  const { api } = useServices();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: PlatformCreateInput) =>
      api.post('/admin/platforms', input, createdPlatformSchema),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: PLATFORMS_QUERY_KEY }),
  });
}

/** PATCH /api/admin/platforms/:id: change some of a platform's fields (its minimum level…). */
export function useUpdatePlatform() {
  const { api } = useServices();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, changes }: { id: string; changes: PlatformUpdateInput }) =>
      api.request('PATCH', `/admin/platforms/${encodeURIComponent(id)}`, {
        body: changes,
        schema: adminPlatformSchema,
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: PLATFORMS_QUERY_KEY }),
  });
}

/** DELETE /api/admin/platforms/:id */
export function useDeletePlatform() {
  const { api } = useServices();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.request('DELETE', `/admin/platforms/${encodeURIComponent(id)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: PLATFORMS_QUERY_KEY }),
  });
}
