import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { verificationStatusSchema } from '@hygie/domain';
import { verificationStatusAnswer } from '../../../lib/answer-schemas';
import { useServices } from '../../../lib/services';

export type VerificationStatus = z.infer<typeof verificationStatusSchema>;

export const VERIFICATION_QUERY_KEY = ['verification'] as const;

/** GET /api/verification: the session user's e-mail and mobile phone, and what is verified. */
export function useVerificationStatus(enabled: boolean) {
  const { api } = useServices();
  return useQuery({
    queryKey: VERIFICATION_QUERY_KEY,
    queryFn: ({ signal }) => api.get('/verification', verificationStatusAnswer, signal),
    enabled,
  });
}
