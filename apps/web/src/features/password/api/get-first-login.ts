import { skipToken, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { firstLoginInfoSchema } from '@hygie/domain';
import { firstLoginInfoAnswer } from '../../../lib/answer-schemas';
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
    queryFn: link
      ? ({ signal }) =>
          api.request('GET', '/first-login', {
            query: { ...link },
            schema: firstLoginInfoAnswer,
            signal,
          })
      : skipToken,
    staleTime: Infinity,
  });
}
