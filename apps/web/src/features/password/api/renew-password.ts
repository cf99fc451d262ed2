import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { currentUserSchema } from '@hygie/domain';
import { useServices } from '../../../lib/services';
import { useCompleteSignIn } from '../../../lib/sign-in';

export interface PasswordRenewInput {
  password: string;
  passwordConfirmation: string;
}

/**
 * POST /api/password/renew (sign-in stage 5, expired or to create): the user once sign-in is
 * complete — a success notice, then on like any completed sign-in — else the next stage's code.
 */
export function usePasswordRenewal() {
  const { api, notifications } = useServices();
  const { t } = useTranslation();
  const complete = useCompleteSignIn();
  return useMutation({
    mutationFn: (input: PasswordRenewInput) =>
      api.post('/password/renew', input, currentUserSchema),
    onSuccess: (user) => {
      notifications.notify(t('security:passwordRenewal.success'), 'success');
      complete(user);
    },
  });
}
