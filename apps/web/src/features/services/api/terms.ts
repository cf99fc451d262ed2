import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { cguStatusSchema } from '@hygie/domain';
import { cguStatusAnswer } from '../../../lib/answer-schemas';
import { useServices } from '../../../lib/services';

export type TermsStatus = z.infer<typeof cguStatusSchema>;

/** GET /api/cgu: the terms in force and the version the user accepted. */
export function useTerms() {
  const { api } = useServices();
  return useQuery({
    queryKey: ['cgu'],
    queryFn: ({ signal }) => api.get('/cgu', cguStatusAnswer, signal),
  });
}
