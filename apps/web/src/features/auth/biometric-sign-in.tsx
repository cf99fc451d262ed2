import { useState } from 'react';
import { useBiometricAvailability } from '../../lib/biometric-availability';
import { useBrowserValue } from '../../lib/hydration';
import { biometricErrorMessage } from '../../lib/biometric-messages';
import {
  isPasskeyCancelled,
  nativeBiometricsSupported,
  passkeysSupported,
  storedKeyId,
} from '../../lib/biometrics';
import { useBrand } from '../../lib/brand';
import { useTexts } from '../../lib/environment';
import { isPendingStage } from '../../lib/sign-in';
import { useNativeLogin, usePasskeyLogin } from './api/biometric-login';
import { BiometricWays } from './biometric-ways';

/**
 * The login page's biometric ways in, in the whole client: "sign in with a passkey" in browsers
 * with WebAuthn, "sign in with biometrics" inside the newer app when this device holds a key.
 */
export function BiometricSignIn({ getUsername }: { getUsername: () => string }) {
  const texts = useTexts();
  const { name: brandName } = useBrand();
  const passkey = usePasskeyLogin();
  const native = useNativeLogin();
  const [keyId, setKeyId] = useState(storedKeyId);
  // Unknown to the server that may draw this page first (lib/hydration.ts): offered once hydrated.
  const passkeys = useBrowserValue(() => passkeysSupported(), false);
  const inApp = useBrowserValue(() => nativeBiometricsSupported(), false);
  const availability = useBiometricAvailability(inApp && !!keyId);
  const offerNative = inApp && !!keyId && availability.data?.available === true;

  const failed = passkey.isError ? passkey.error : native.isError ? native.error : null;
  const failure = failed && !isPendingStage(failed) ? biometricErrorMessage(texts, failed) : null;

  return (
    <BiometricWays
      passkeys={passkeys}
      offerNative={offerNative}
      failure={failure}
      cancelledPasskey={passkey.isError && isPasskeyCancelled(passkey.error)}
      passkeyPending={passkey.isPending}
      nativePending={native.isPending}
      onPasskey={() => {
        native.reset();
        passkey.mutate(getUsername().trim() || undefined);
      }}
      onNative={() => {
        if (!keyId) return;
        passkey.reset();
        native.mutate(
          { keyId, promptTitle: texts.t('biometrics:prompt.signIn', { brand: brandName }) },
          { onError: () => setKeyId(storedKeyId()) },
        );
      }}
    />
  );
}
