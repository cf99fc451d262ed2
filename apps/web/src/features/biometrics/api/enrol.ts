import { useMutation } from '@tanstack/react-query';
import { enrolNativeKey, registerPasskey } from '../../../lib/biometrics';
import { useServices } from '../../../lib/services';

export interface EnrolInput {
  /** Through the app's bridge (true) or as a browser passkey (false). */
  native: boolean;
  deviceName: string;
  promptTitle: string;
  promptSubtitle: string;
}

/**
 * Enrols this device: in the app POST /api/biometrics/native/enrol/challenge →
 * createBiometricKey → …/native/enrol (the key id is remembered on the device); in a browser
 * POST /api/biometrics/webauthn/registration/options → passkey prompt → …/registration/verify,
 * whose answer carries the first recovery codes when the account had none (shown once).
 */
export function useEnrolBiometrics() {
  const { api, queryClient } = useServices();
  return useMutation({
    mutationFn: async (input: EnrolInput): Promise<string[] | undefined> => {
      if (!input.native) return registerPasskey(api, input.deviceName);
      await enrolNativeKey(api, input);
      return undefined;
    },
    onSuccess: async (recoveryCodes) => {
      await queryClient.invalidateQueries({ queryKey: ['biometric-credentials'] });
      if (recoveryCodes) await queryClient.invalidateQueries({ queryKey: ['recovery-codes'] });
    },
  });
}
