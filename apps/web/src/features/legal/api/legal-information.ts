import { useQuery } from '@tanstack/react-query';
import { legalInformationSchema } from '@hygie/domain';
import { useServices } from '../../../lib/services';

/** GET /api/legal: publisher, host, DPO and retention periods (public). */
export function useLegalInformation() {
  const { api } = useServices();
  return useQuery({
    queryKey: ['legal'],
    queryFn: ({ signal }) => api.get('/legal', legalInformationSchema, signal),
    staleTime: 5 * 60_000,
  });
}
