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
 * POST /api/biometrics/webauthn/registration/options → passkey prompt → …/registration/verify.
 */
export function useEnrolBiometrics() {
  const { api, queryClient } = useServices();
  return useMutation({
    mutationFn: async (input: EnrolInput) => {
      if (input.native) await enrolNativeKey(api, input);
      else await registerPasskey(api, input.deviceName);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['biometric-credentials'] }),
  });
}
