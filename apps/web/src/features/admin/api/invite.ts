import { useMutation, useQueryClient } from '@tanstack/react-query';
import { invitationResultSchema } from '@hygie/domain';
import { useServices } from '../../../lib/services';
import { USERS_QUERY_KEY } from './users';

export interface InvitationInput {
  email: string;
  firstName?: string;
  lastName?: string;
  profile?: 'patient' | 'professional' | null;
  admin?: boolean;
}

/** POST /api/admin/invitations: creates the account and e-mails the first-login link. */
export function useInvite() {
  const { api } = useServices();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: InvitationInput) =>
      api.post('/admin/invitations', input, invitationResultSchema),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: USERS_QUERY_KEY }),
  });
}
