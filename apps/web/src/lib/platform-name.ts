import { useQuery } from '@tanstack/react-query';
import { platformNameSchema } from '@hygie/domain';
import { useServices } from './services';

const MAX_CLIENT_ID_LENGTH = 64;

/** GET /api/platforms/by-client/{clientId}: the registered name and address of a platform. */
export function usePlatformName(clientId: string | null) {
  const { api } = useServices();
  const id = clientId && clientId.length <= MAX_CLIENT_ID_LENGTH ? clientId : null;
  return useQuery({
    queryKey: ['platform-name', id],
    queryFn: ({ signal }) =>
      api.get(`/platforms/by-client/${encodeURIComponent(id ?? '')}`, platformNameSchema, signal),
    enabled: id !== null,
    retry: false,
  });
}
