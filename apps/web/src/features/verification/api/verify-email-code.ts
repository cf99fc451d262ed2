import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { currentUserSchema } from '@hygie/domain';
import { useServices } from '../../../lib/services';
import { useCompleteSignIn } from '../../../lib/sign-in';

/** Anonymous: `{ ok: true }`; in a session: the user once sign-in is complete. */
const answerSchema = z.union([currentUserSchema, z.object({ ok: z.literal(true) })]);

/**
 * POST /api/verification/email/verify: `{ email, code }` from the e-mailed link (anonymous) or
 * `{ code }` in a session at the e-mail stage, where the user (sign-in complete) or the next
 * stage's code comes back.
 */
export function useVerifyEmailCode() {
  const { api } = useServices();
  const complete = useCompleteSignIn();
  return useMutation({
    mutationFn: (input: { email?: string; code: string }) =>
      api.post('/verification/email/verify', input, answerSchema),
    onSuccess: (answer) => {
      if ('type' in answer) complete(answer);
    },
  });
}
