import { useMutation } from '@tanstack/react-query';
import { okAnswer } from '../../../lib/answer-schemas';
import { useServices } from '../../../lib/services';

export interface PasswordResetInput {
  resetToken: string;
  password: string;
  passwordConfirmation: string;
}

/** POST /api/password/reset: sets the new password; every session and trusted device ends. */
export function useResetPassword() {
  const { api } = useServices();
  return useMutation({
    mutationFn: (input: PasswordResetInput) => api.post('/password/reset', input, okAnswer),
  });
}
