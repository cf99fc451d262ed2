import { useMutation } from '@tanstack/react-query';
import type { SentCodeProvider } from '@hygie/domain';
import { codeSentAnswer } from '../../../lib/answer-schemas';
import { useServices } from '../../../lib/services';

export interface ForgotPasswordInput {
  /** E-mail, mobile phone, INS or RPPS. */
  username: string;
  channel: SentCodeProvider;
}

/** POST /api/password/forgot: sends a reset code — the same answer whether the account exists. */
export function useForgotPassword() {
  const { api } = useServices();
  return useMutation({
    mutationFn: (input: ForgotPasswordInput) => api.post('/password/forgot', input, codeSentAnswer),
  });
}
