import { useQuery } from '@tanstack/react-query';
import { trustedDeviceListSchema } from '@hygie/domain';
import { useServices } from '../../../lib/services';

export const DEVICES_QUERY_KEY = ['devices'] as const;

/** GET /api/devices: the user's trusted devices, most recently used first. */
export function useDevices() {
  const { api } = useServices();
  return useQuery({
    queryKey: DEVICES_QUERY_KEY,
    queryFn: ({ signal }) => api.get('/devices', trustedDeviceListSchema, signal),
  });
}
