import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import FingerprintIcon from '@mui/icons-material/Fingerprint';
import KeyIcon from '@mui/icons-material/Key';
import { useTranslation } from 'react-i18next';
import { useBiometricAvailability } from '../../lib/biometric-availability';
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
  const [passkeys] = useState(() => passkeysSupported());
  const [inApp] = useState(() => nativeBiometricsSupported());
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
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2, mt: 3 }}>
      {(passkeys || offerNative) && <Divider>{t('biometrics:login.or')}</Divider>}
      {failure && (
        <Alert severity="error" role="alert" data-testid="biometric-error">
          {failure}
        </Alert>
      )}
      {cancelledPasskey && (
        <Alert severity="info" role="status">
          {t('biometrics:login.passkeyCancelled')}
        </Alert>
      )}
      {offerNative && (
        <Button
          variant="outlined"
          size="large"
          fullWidth
          startIcon={<FingerprintIcon />}
          loading={native.isPending}
          onClick={signInWithBiometrics}
          data-testid="biometric-login"
        >
          {t('biometrics:login.native')}
        </Button>
      )}
      {passkeys && (
        <Button
          variant="outlined"
          size="large"
          fullWidth
          startIcon={<KeyIcon />}
          loading={passkey.isPending}
          onClick={signInWithPasskey}
          data-testid="passkey-login"
        >
          {t('biometrics:login.passkey')}
        </Button>
      )}
    </Box>
  );
}
