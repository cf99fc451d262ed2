import { useMutation } from '@tanstack/react-query';
import { okAnswer } from '../../../lib/answer-schemas';
import { useServices } from '../../../lib/services';
import type { FirstLoginLink } from './get-first-login';

/** POST /api/first-login: the invited person's first password (the link proves the address). */
export function useCreateFirstPassword() {
  const { api } = useServices();
  return useMutation({
    mutationFn: (input: FirstLoginLink & { password: string; passwordConfirmation: string }) =>
      api.post('/first-login', input, okAnswer),
  });
}
