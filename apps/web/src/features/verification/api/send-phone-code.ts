import { useMutation } from '@tanstack/react-query';
import type { CodeSent } from '@hygie/domain';
import { useServices } from '../../../lib/services';

/** POST /api/verification/mobile-phone/send: the SMS code again, to the current number. */
export function useSendPhoneCode() {
  const { api } = useServices();
  return useMutation({
    mutationFn: () => api.post<CodeSent>('/verification/mobile-phone/send'),
  });
}
