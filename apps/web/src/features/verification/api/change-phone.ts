import { useMutation, useQueryClient } from '@tanstack/react-query';
import { codeSentAnswer } from '../../../lib/answer-schemas';
import { useServices } from '../../../lib/services';
import { VERIFICATION_QUERY_KEY } from './get-verification';

/** POST /api/verification/mobile-phone/change {phone}: sets (or replaces) the number, sends a code. */
export function useChangePhone() {
  const { api } = useServices();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (phone: string) =>
      api.post('/verification/mobile-phone/change', { phone }, codeSentAnswer),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: VERIFICATION_QUERY_KEY }),
  });
}
