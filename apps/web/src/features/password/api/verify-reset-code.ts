import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { useServices } from '../../../lib/services';
import type { ForgotPasswordInput } from './forgot-password';

const resetTokenAnswer = z.object({ resetToken: z.string().min(1) });

/** POST /api/password/forgot/verify {username, channel, code} → a short-lived reset token. */
export function useVerifyResetCode() {
  const { api } = useServices();
  return useMutation({
    mutationFn: (input: ForgotPasswordInput & { code: string }) =>
      api.post('/password/forgot/verify', input, resetTokenAnswer),
  });
}
