import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { auditPageSchema } from '@hygie/domain';
import { useServices } from '../../../lib/services';

export interface AuditFilter {
  user?: string;
  type?: string;
  /** YYYY-MM-DD, included. */
  from?: string;
  /** YYYY-MM-DD, included. */
  to?: string;
}

/** The filter as query parameters (the page's and the CSV export's). */
export function auditParams(filter: AuditFilter): Record<string, string> {
  return Object.fromEntries(
    Object.entries(filter).filter((entry): entry is [string, string] => !!entry[1]),
  );
}

/** GET /api/admin/audit: the trail, newest first, page after page. */
export function useAudit(filter: AuditFilter) {
  const { api } = useServices();
  return useInfiniteQuery({
    queryKey: ['admin', 'audit', filter],
    initialPageParam: '',
    queryFn: ({ pageParam, signal }) =>
      api.request('GET', '/admin/audit', {
        query: { ...auditParams(filter), limit: '50', ...(pageParam && { cursor: pageParam }) },
        schema: auditPageSchema,
        signal,
      }),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    placeholderData: keepPreviousData,
  });
}
