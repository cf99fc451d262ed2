import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import type { lockAccountInputSchema, lockAccountResultSchema } from '@hygie/domain';
import { lockAccountAnswer } from '../../../lib/answer-schemas';
import { useServices } from '../../../lib/services';
import { resetClientSession } from '../../../lib/sign-in';

export type LockAccountInput = z.infer<typeof lockAccountInputSchema>;
export type LockAccountResult = z.infer<typeof lockAccountResultSchema>;

/**
 * POST /api/lock-account {email, code} (the "not you?" link) → `{ username }`. The server has
 * locked the account and ended every session, this browser's included: the client forgets its
 * session too.
 */
export function useLockAccount() {
  const services = useServices();
  return useMutation({
    mutationFn: (input: LockAccountInput) =>
      services.api.post('/lock-account', input, lockAccountAnswer),
    onSuccess: () => resetClientSession(services),
  });
}
