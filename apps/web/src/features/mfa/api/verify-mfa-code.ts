import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { currentUserSchema, recoveryCodeUsedSchema, type MfaProvider } from '@hygie/domain';
import { useServices } from '../../../lib/services';
import { useCompleteSignIn } from '../../../lib/sign-in';

export interface MfaVerifyInput {
  provider: MfaProvider;
  code: string;
  /** "Don't ask again on this device". */
  trustDevice: boolean;
}

/** The answer: the user, and how many recovery codes are left after one was used. */
const verifiedSchema = currentUserSchema.extend(recoveryCodeUsedSchema.partial().shape);

/**
 * POST /api/mfa/verify. The user when sign-in is complete; else the next stage's code, which
 * moves the account state (the guard shows the next screen). After a recovery code, the user is
 * told how many are left (and to make new ones when none are).
 */
export function useVerifyMfaCode() {
  const { t } = useTranslation();
  const { api, notifications } = useServices();
  const complete = useCompleteSignIn();
  return useMutation({
    mutationFn: (input: MfaVerifyInput) => api.post('/mfa/verify', input, verifiedSchema),
    onSuccess: ({ recoveryCodesLeft, ...user }) => {
      if (recoveryCodesLeft !== undefined) {
        notifications.notify(
          recoveryCodesLeft === 0
            ? t('security:mfa.recoveryNoneLeft')
            : t('security:mfa.recoveryLeft', { count: recoveryCodesLeft }),
          recoveryCodesLeft === 0 ? 'warning' : 'info',
        );
      }
      complete(user);
    },
  });
}
