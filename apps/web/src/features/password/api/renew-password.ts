import { useMutation } from '@tanstack/react-query';
import { useLocation, useNavigate } from 'react-router';
import { currentUserSchema } from '@hygie/domain';
import { withFlowParams } from '../../../lib/flow-params';
import { useServices } from '../../../lib/services';

export interface PasswordRenewInput {
  password: string;
  passwordConfirmation: string;
}

export const RENEWAL_SUCCESS_PATH = '/security/password-renewal/success';

/**
 * POST /api/password/renew (sign-in stage 5, expired or to create): the user once sign-in is
 * complete — on to the success page with the user (it completes the sign-in when it moves on,
 * keeping the flow parameters) — else the next stage's code.
 */
export function usePasswordRenewal() {
  const { api } = useServices();
  const navigate = useNavigate();
  const { search } = useLocation();
  return useMutation({
    mutationFn: (input: PasswordRenewInput) =>
      api.post('/password/renew', input, currentUserSchema),
    onSuccess: (user) => {
      void navigate(withFlowParams(RENEWAL_SUCCESS_PATH, search), {
        replace: true,
        state: { renewed: user },
      });
    },
  });
}
