import { useMutation, useQueryClient } from '@tanstack/react-query';
import { codeSentSchema, profileSchema } from '@hygie/domain';
import { ME_QUERY_KEY } from '../../../lib/current-user';
import { useServices } from '../../../lib/services';
import { PROFILE_QUERY_KEY } from './profile';

export type ContactKind = 'email' | 'phone';

export interface ContactChangeInput {
  value: string;
  currentPassword: string;
}

/**
 * POST /api/profile/email {email, currentPassword} or /api/profile/phone {phone, currentPassword}:
 * a code goes to the new address or number (wrong password → wrong_current_password).
 */
export function useRequestContactChange(kind: ContactKind) {
  const { api } = useServices();
  return useMutation({
    mutationFn: ({ value, currentPassword }: ContactChangeInput) =>
      api.post(`/profile/${kind}`, { [kind]: value, currentPassword }, codeSentSchema),
  });
}

/** POST /api/profile/email/verify or /phone/verify {code}: the new value replaces the old. */
export function useVerifyContactChange(kind: ContactKind) {
  const { api } = useServices();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => api.post(`/profile/${kind}/verify`, { code }, profileSchema),
    onSuccess: (profile) => {
      queryClient.setQueryData(PROFILE_QUERY_KEY, profile);
      void queryClient.invalidateQueries({ queryKey: ME_QUERY_KEY });
    },
  });
}
