import {
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';
import type { MessageStatus } from '@hygie/domain';
import { adminMessageListSchema, adminMessageSchema } from '@hygie/domain';
import { useServices } from '../../../lib/services';

export const MESSAGES_QUERY_KEY = ['admin', 'messages'] as const;

export type MessageChannel = 'email' | 'sms' | 'logout';

export interface MessageFilter {
  status?: MessageStatus;
  channel?: MessageChannel;
}

/** GET /api/admin/messages?status=&channel=&cursor=: the outbox, newest first, page after page. */
export function useMessages(filter: MessageFilter) {
  const { api } = useServices();
  return useInfiniteQuery({
    queryKey: [...MESSAGES_QUERY_KEY, filter],
    initialPageParam: '',
    queryFn: ({ pageParam, signal }) => {
      const query: Record<string, string> = {
        limit: '50',
        ...(filter.status && { status: filter.status }),
        ...(filter.channel && { channel: filter.channel }),
        ...(pageParam && { cursor: pageParam }),
      };
      return api.request('GET', '/admin/messages', {
        query,
        schema: adminMessageListSchema,
        signal,
      });
    },
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    placeholderData: keepPreviousData,
  });
}

/** POST /api/admin/messages/:id/retry: a failed message goes back in the queue. */
export function useRetryMessage() {
  const { api } = useServices();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api.post(`/admin/messages/${encodeURIComponent(id)}/retry`, {}, adminMessageSchema),
    onSettled: () => queryClient.invalidateQueries({ queryKey: MESSAGES_QUERY_KEY }),
  });
}
