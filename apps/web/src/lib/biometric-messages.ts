import type { TFunction } from 'i18next';
import type { TextSource } from './environment';
import { ApiError } from './api-client';
import { BiometricError, guessDevice, isPasskeyCancelled } from './biometrics';
import { errorMessage } from './error-message';
import { NativeBridgeError } from './native-bridge';

/**
 * The message for a failed biometric sign-in or enrolment (docs/native-bridge.md §5), or null
 * when there is nothing to say (the user cancelled the app's or the browser's prompt).
 */
export function biometricErrorMessage(i18n: TextSource, error: unknown): string | null {
  if (error instanceof BiometricError) return i18n.t(`errors:${error.code}`);
  if (error instanceof NativeBridgeError) {
    if (error.code === 'cancelled') return null;
    if (error.code === 'key_invalidated') return i18n.t('errors:biometric_key_invalidated');
    return i18n.t(`biometrics:errors.${error.code}`);
  }
  if (error instanceof ApiError) return errorMessage(i18n, error);
  if (isPasskeyCancelled(error)) return null;
  return i18n.t('biometrics:errors.passkey_failed');
}

/** A readable name for this device ("Chrome sur Linux"), which the user may change. */
export function defaultDeviceName(t: TFunction, userAgent: string, native: boolean): string {
  const { browser, os } = guessDevice(userAgent);
  if (native) return os ? `${t('biometrics:device.app')} (${os})` : t('biometrics:device.app');
  if (browser && os) return t('biometrics:device.browserOnOs', { browser, os });
  return browser ?? os ?? t('biometrics:device.browser');
}
