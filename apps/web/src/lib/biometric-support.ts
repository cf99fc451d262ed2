import { getNativeBridge, isNativeApp, isNewerNativeApp } from './native-bridge';
import { readStorage, writeStorage } from './storage';

// What this device offers for biometric sign-in, and what it remembers (docs/native-bridge.md):
// apart from lib/biometrics.ts and its schemas, so the login page's island reads it without zod.

export const KEY_ID_STORAGE = 'biometrics.keyId';
export const DECLINED_STORAGE = 'biometrics.declined';

export function storedKeyId(): string | null {
  return readStorage('localStorage', KEY_ID_STORAGE);
}
export function rememberKeyId(keyId: string | null): void {
  writeStorage('localStorage', KEY_ID_STORAGE, keyId);
}
export function enrolmentDeclined(): boolean {
  return readStorage('localStorage', DECLINED_STORAGE) === '1';
}
export function rememberDeclined(): void {
  writeStorage('localStorage', DECLINED_STORAGE, '1');
}

/** Inside the newer app with its bridge: biometric sign-in through the app is possible. */
export function nativeBiometricsSupported(win: Window = window): boolean {
  return isNewerNativeApp(win.navigator.userAgent) && !!getNativeBridge(win);
}

/**
 * True for an IPv4 or IPv6 literal host ("192.168.1.20", "[::1]"): WebAuthn needs a domain as
 * its relying party, so a portal reached by an IP address cannot use passkeys.
 */
export function isIpAddressHost(hostname: string): boolean {
  if (hostname.startsWith('[') || hostname.includes(':')) return true;
  return /^\d{1,3}(?:\.\d{1,3}){3}$/u.test(hostname);
}

/** A browser (never the app, nor an older app's web view) with WebAuthn, on a domain name. */
export function passkeysSupported(
  win: Window = window,
  hostname: string = win.location.hostname,
): boolean {
  const webauthn = 'PublicKeyCredential' in win ? win.PublicKeyCredential : undefined;
  return (
    !isNativeApp(win.navigator.userAgent) &&
    typeof webauthn === 'function' &&
    !isIpAddressHost(hostname)
  );
}

/** After a sign-in in the app: ask to enrol when the device has no key and the user has not declined. */
export function shouldOfferBiometricEnrolment(win: Window = window): boolean {
  return nativeBiometricsSupported(win) && !storedKeyId() && !enrolmentDeclined();
}
