import { useInfiniteQuery } from '@tanstack/react-query';
import { myActivityPageSchema } from '@hygie/domain';
import { useServices } from '../../../lib/services';

/** GET /api/me/activity: my security events, newest first, page after page. */
export function useMyActivity() {
  const { api } = useServices();
  return useInfiniteQuery({
    queryKey: ['me', 'activity'],
    initialPageParam: '',
    queryFn: ({ pageParam, signal }) =>
      api.request('GET', '/me/activity', {
        query: { limit: '20', ...(pageParam && { before: pageParam }) },
        schema: myActivityPageSchema,
        signal,
      }),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}
