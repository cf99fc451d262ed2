import { PlainAlert, PlainDivider } from '../../components/plain/alert';
import { PlainButton } from '../../components/plain/button';
import { useTexts } from '../../lib/environment';

/** The login page's biometric ways in, as offered and as they went. */
export interface BiometricWaysProps {
  /** A browser with WebAuthn: "sign in with a passkey". */
  passkeys: boolean;
  /** Inside the newer app, with a key on this device: "sign in with biometrics". */
  offerNative: boolean;
  /** What to tell of the last failure, if anything. */
  failure: string | null;
  /** The browser's passkey prompt was dismissed. */
  cancelledPasskey: boolean;
  passkeyPending: boolean;
  nativePending: boolean;
  onPasskey(this: void): void;
  onNative(this: void): void;
}

/**
 * The login page's biometric ways in (docs/native-bridge.md): drawn by the whole client
 * (biometric-sign-in.tsx) and by the login page's island (app/island/), each signing in its way.
 */
export function BiometricWays({
  passkeys,
  offerNative,
  failure,
  cancelledPasskey,
  passkeyPending,
  nativePending,
  onPasskey,
  onNative,
}: BiometricWaysProps) {
  const { t } = useTexts();
  if (!passkeys && !offerNative && !failure) return null;
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
          loading={nativePending}
          onClick={onNative}
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
          loading={passkeyPending}
          onClick={onPasskey}
          data-testid="passkey-login"
        >
          {t('biometrics:login.passkey')}
        </PlainButton>
      )}
    </div>
  );
}
