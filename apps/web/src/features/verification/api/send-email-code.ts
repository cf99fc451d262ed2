import { useMutation } from '@tanstack/react-query';
import { codeSentAnswer } from '../../../lib/answer-schemas';
import { useServices } from '../../../lib/services';

/**
 * POST /api/verification/email/send: anonymous callers name the address (the answer is the same
 * whether it has an account); a session sends to its own address (`email` undefined).
 */
export function useSendEmailCode() {
  const { api } = useServices();
  return useMutation({
    mutationFn: (email: string | undefined) =>
      api.post('/verification/email/send', email === undefined ? {} : { email }, codeSentAnswer),
  });
}
