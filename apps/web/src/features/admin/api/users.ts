import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AccountStatus } from '@hygie/domain';
import { userSearchResultSchema } from '@hygie/domain';
import { useServices } from '../../../lib/services';

export const USERS_QUERY_KEY = ['admin', 'users'] as const;

export interface UserSearch {
  q: string;
  status?: AccountStatus;
  role?: 'admin' | 'user';
  type?: 'patient' | 'professional' | 'none';
  /** The page's cursor (`nextCursor` of the one before); none for the first page. */
  cursor?: string;
  pageSize?: number;
}

/** GET /api/admin/users?q=&status=&role=&type=&cursor=&pageSize=: users with their access per platform. */
export function useUserSearch(search: UserSearch, enabled = true) {
  const { api } = useServices();
  const query: Record<string, string> = {
    q: search.q,
    pageSize: String(search.pageSize ?? 20),
    ...(search.status && { status: search.status }),
    ...(search.role && { role: search.role }),
    ...(search.type && { type: search.type }),
    ...(search.cursor && { cursor: search.cursor }),
  };
  return useQuery({
    queryKey: [...USERS_QUERY_KEY, query],
    queryFn: ({ signal }) =>
      api.request('GET', '/admin/users', { query, schema: userSearchResultSchema, signal }),
    enabled,
    placeholderData: keepPreviousData,
  });
}
