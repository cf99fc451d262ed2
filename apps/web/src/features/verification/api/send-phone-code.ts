import { useMutation } from '@tanstack/react-query';
import { codeSentAnswer } from '../../../lib/answer-schemas';
import { useServices } from '../../../lib/services';

/** POST /api/verification/mobile-phone/send: the SMS code again, to the current number. */
export function useSendPhoneCode() {
  const { api } = useServices();
  return useMutation({
    mutationFn: () => api.post('/verification/mobile-phone/send', {}, codeSentAnswer),
  });
}
