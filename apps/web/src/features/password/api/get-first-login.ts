import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { firstLoginInfoSchema } from '@hygie/domain';
import { useServices } from '../../../lib/services';

export type FirstLoginInfo = z.infer<typeof firstLoginInfoSchema>;

export interface FirstLoginLink {
  personIdentifier: string;
  email: string;
  code: string;
}

/** GET /api/first-login?personIdentifier=&email=&code= → who the invitation is for. */
export function useFirstLoginInfo(link: FirstLoginLink | null) {
  const { api } = useServices();
  return useQuery({
    queryKey: ['first-login', link],
    queryFn: ({ signal }) =>
      api.request<FirstLoginInfo>('GET', '/first-login', {
        query: { ...(link as FirstLoginLink) },
        signal,
      }),
    enabled: link !== null,
    staleTime: Infinity,
  });
}
