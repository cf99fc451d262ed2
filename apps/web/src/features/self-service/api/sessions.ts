import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { endedSessionsSchema, mySessionListSchema, okSchema } from '@hygie/domain';
import { useServices } from '../../../lib/services';

export const SESSIONS_QUERY_KEY = ['me', 'sessions'] as const;

/** GET /api/me/sessions: my live sessions, newest first, the current one marked. */
export function useMySessions() {
  const { api } = useServices();
  return useQuery({
    queryKey: SESSIONS_QUERY_KEY,
    queryFn: ({ signal }) => api.get('/me/sessions', mySessionListSchema, signal),
  });
}

/** DELETE /api/me/sessions/:id, then the list is loaded again. */
export function useEndSession() {
  const { api } = useServices();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api.request('DELETE', `/me/sessions/${encodeURIComponent(id)}`, { schema: okSchema }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: SESSIONS_QUERY_KEY }),
  });
}

/** POST /api/me/sessions/end-others: every session but this one ends. */
export function useEndOtherSessions() {
  const { api } = useServices();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      api.request('POST', '/me/sessions/end-others', { schema: endedSessionsSchema }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: SESSIONS_QUERY_KEY }),
  });
}
