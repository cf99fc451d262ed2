import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { cguStatusSchema } from '@hygie/domain';
import { cguStatusAnswer } from '../../../lib/answer-schemas';
import { useServices } from '../../../lib/services';

export type CguStatus = z.infer<typeof cguStatusSchema>;

export const CGU_QUERY_KEY = ['cgu'] as const;

/** GET /api/cgu: the version in force, its publication date, the version this user accepted. */
export function useCguStatus() {
  const { api } = useServices();
  return useQuery({
    queryKey: CGU_QUERY_KEY,
    queryFn: ({ signal }) => api.get('/cgu', cguStatusAnswer, signal),
  });
}
