import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PlainAlert, PlainDivider } from '../../components/plain/alert';
import { PlainButton } from '../../components/plain/button';
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
import { isPendingStage } from '../../lib/sign-in';
import { useNativeLogin, usePasskeyLogin } from './api/biometric-login';

/**
 * The login page's biometric ways in: "sign in with a passkey" in browsers with WebAuthn, "sign
 * in with biometrics" inside the newer app when this device holds a key.
 */
export function BiometricSignIn({ getUsername }: { getUsername: () => string }) {
  const { t, i18n } = useTranslation();
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
  const cancelledPasskey = passkey.isError && isPasskeyCancelled(passkey.error);
  const failure = failed && !isPendingStage(failed) ? biometricErrorMessage(i18n, failed) : null;

  if (!passkeys && !offerNative && !failure) return null;

  const signInWithPasskey = () => {
    native.reset();
    passkey.mutate(getUsername().trim() || undefined);
  };
  const signInWithBiometrics = () => {
    if (!keyId) return;
    passkey.reset();
    native.mutate(
      { keyId, promptTitle: t('biometrics:prompt.signIn', { brand: brandName }) },
      { onError: () => setKeyId(storedKeyId()) },
    );
  };

  return (
    <div className="hy-stack-16 hy-mt-3">
      {(passkeys || offerNative) && <PlainDivider>{t('biometrics:login.or')}</PlainDivider>}
      {failure && (
        <PlainAlert severity="error" role="alert" data-testid="biometric-error">
          {failure}
        </PlainAlert>
      )}
      {cancelledPasskey && (
        <PlainAlert severity="info" role="status">
          {t('biometrics:login.passkeyCancelled')}
        </PlainAlert>
      )}
      {offerNative && (
        <PlainButton
          variant="outlined"
          size="large"
          fullWidth
          startIcon="fingerprint"
          loading={native.isPending}
          onClick={signInWithBiometrics}
          data-testid="biometric-login"
        >
          {t('biometrics:login.native')}
        </PlainButton>
      )}
      {passkeys && (
        <PlainButton
          variant="outlined"
          size="large"
          fullWidth
          startIcon="key"
          loading={passkey.isPending}
          onClick={signInWithPasskey}
          data-testid="passkey-login"
        >
          {t('biometrics:login.passkey')}
        </PlainButton>
      )}
    </div>
  );
}
