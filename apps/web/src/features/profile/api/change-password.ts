import { useMutation } from '@tanstack/react-query';
import { okSchema } from '@hygie/domain';
import { useServices } from '../../../lib/services';

export interface PasswordChangeInput {
  currentPassword: string;
  password: string;
  passwordConfirmation: string;
}

/** POST /api/profile/password: ends the user's other sessions and trusted devices. */
export function useChangePassword() {
  const { api } = useServices();
  return useMutation({
    mutationFn: (input: PasswordChangeInput) => api.post('/profile/password', input, okSchema),
  });
}
