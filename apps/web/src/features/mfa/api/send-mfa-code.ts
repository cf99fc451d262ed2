import { useMutation } from '@tanstack/react-query';
import type { MfaProvider } from '@hygie/domain';
import { codeSentAnswer } from '../../../lib/answer-schemas';
import { useServices } from '../../../lib/services';

/** POST /api/mfa/send {provider} → the masked destination and the wait before sending again. */
export function useSendMfaCode() {
  const { api } = useServices();
  return useMutation({
    mutationFn: (provider: MfaProvider) => api.post('/mfa/send', { provider }, codeSentAnswer),
  });
}
