import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import {
  assuranceLevelResultSchema,
  biometricChallengeSchema,
  currentUserMiniSchema,
  type CurrentUser,
} from '@hygie/domain';
import * as z from 'zod/mini';
import { ApiError, type ApiClient } from './api-client';
import { rememberKeyId } from './biometric-support';
import {
  createBiometricKey,
  deleteBiometricKey,
  NativeBridgeError,
  signChallenge,
} from './native-bridge';

// Biometric sign-in on the client (docs/native-bridge.md): passkeys in browsers, the app's key
// through the native bridge. The device remembers its key and a declined enrolment.

export {
  DECLINED_STORAGE,
  enrolmentDeclined,
  isIpAddressHost,
  KEY_ID_STORAGE,
  nativeBiometricsSupported,
  passkeysSupported,
  rememberDeclined,
  rememberKeyId,
  shouldOfferBiometricEnrolment,
  storedKeyId,
} from './biometric-support';

const BROWSERS: [RegExp, string][] = [
  [/\bEdg(e|A|iOS)?\//, 'Edge'],
  [/\bOPR\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\b(Firefox|FxiOS)\//, 'Firefox'],
  [/(Chrome|CriOS|Chromium)\//, 'Chrome'],
  [/\bSafari\//, 'Safari'],
];
const SYSTEMS: [RegExp, string][] = [
  [/\b(iPhone|iPad|iPod)\b/, 'iOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

/** The parts of a readable device name guessed from the user agent ("Chrome", "Linux"). */
export function guessDevice(userAgent: string): { browser: string | null; os: string | null } {
  const browser = BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1] ?? null;
  const os = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1] ?? null;
  return { browser, os };
}

// Not the domain's okSchema: schemas/security pulls every validator (and classic zod) into the
// login page, which loads this module.
const okSchema = z.object({ ok: z.literal(true) });
/** A passkey stored, and the first recovery codes when the server made them. */
const passkeyEnrolledSchema = z.extend(okSchema, {
  recoveryCodes: z.optional(z.array(z.string())),
});

const optionsSchema = z.object({
  challengeId: z.string(),
  options: z.record(z.string(), z.unknown()),
});

/** The user dismissed the browser's passkey prompt (or it timed out): nothing to report. */
export function isPasskeyCancelled(error: unknown): boolean {
  return (
    error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError')
  );
}

/** A browser or app failure turned into an error the page can translate. */
export class BiometricError extends Error {
  constructor(readonly code: string) {
    super(`biometrics: ${code}`);
    this.name = 'BiometricError';
  }
}

/** Passkey sign-in: options (narrowed to `username` when given) → browser prompt → verify. */
export async function signInWithPasskey(
  api: ApiClient,
  username: string | undefined,
): Promise<CurrentUser> {
  const { challengeId, options } = await api.post(
    '/biometrics/webauthn/authentication/options',
    username ? { username } : {},
    optionsSchema,
  );
  const response = await promptPasskey(options);
  return api.post(
    '/biometrics/webauthn/authentication/verify',
    { challengeId, response },
    currentUserMiniSchema,
  );
}

/**
 * The WebAuthn helpers, loaded when a passkey is first used: the login page offers the button but
 * does not need them to show it.
 */
function webAuthn() {
  return import('@simplewebauthn/browser');
}

/** The browser's passkey prompt for the server's request options: the signed assertion. */
async function promptPasskey(options: Record<string, unknown>) {
  const { startAuthentication } = await webAuthn();
  return startAuthentication({
    // eslint-disable-next-line @typescript-eslint/consistent-type-assertions -- @simplewebauthn/browser takes the JSON of @simplewebauthn/server's generateAuthenticationOptions() as it is; our server relays it unchanged and the browser's WebAuthn API checks it
    optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON,
  });
}

/**
 * Raises the signed-in session with a passkey (POST /api/me/assurance/passkey/options → browser
 * prompt → POST /api/me/assurance/passkey): the session's level afterwards.
 */
export async function stepUpWithPasskey(
  api: ApiClient,
): Promise<z.infer<typeof assuranceLevelResultSchema>> {
  const { challengeId, options } = await api.post(
    '/me/assurance/passkey/options',
    {},
    optionsSchema,
  );
  const response = await promptPasskey(options);
  return api.post('/me/assurance/passkey', { challengeId, response }, assuranceLevelResultSchema);
}

/**
 * Passkey enrolment for the signed-in user: options → browser prompt → verify. Returns the first
 * recovery codes when the server made them (the account had none left), to show once.
 */
export async function registerPasskey(
  api: ApiClient,
  deviceName: string,
): Promise<string[] | undefined> {
  const { challengeId, options } = await api.post(
    '/biometrics/webauthn/registration/options',
    undefined,
    optionsSchema,
  );
  const { startRegistration } = await webAuthn();
  const response = await startRegistration({
    // eslint-disable-next-line @typescript-eslint/consistent-type-assertions -- @simplewebauthn/browser takes the JSON of @simplewebauthn/server's generateRegistrationOptions() as it is; our server relays it unchanged and the browser's WebAuthn API checks it
    optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON,
  });
  const stored = await api.post(
    '/biometrics/webauthn/registration/verify',
    { challengeId, deviceName, response },
    passkeyEnrolledSchema,
  );
  return stored.recoveryCodes;
}

/** App enrolment: challenge → `createBiometricKey` → the server stores the key; remembered here. */
export async function enrolNativeKey(
  api: ApiClient,
  input: { deviceName: string; promptTitle: string; promptSubtitle: string },
  win: Window = window,
): Promise<void> {
  const { challengeId, challenge } = await api.post(
    '/biometrics/native/enrol/challenge',
    undefined,
    biometricChallengeSchema,
  );
  const key = await createBiometricKey(
    { challenge, promptTitle: input.promptTitle, promptSubtitle: input.promptSubtitle },
    win,
  );
  try {
    await api.post(
      '/biometrics/native/enrol',
      { challengeId, ...key, deviceName: input.deviceName },
      okSchema,
    );
  } catch (error) {
    // The server refused the key: the app need not keep it.
    await deleteBiometricKey(key.keyId, win);
    throw error;
  }
  rememberKeyId(key.keyId);
}

/** The key is gone (new fingerprint, or revoked in the portal): tell the server, forget it. */
export async function forgetInvalidatedKey(
  api: ApiClient,
  keyId: string,
  win: Window = window,
): Promise<void> {
  rememberKeyId(null);
  await Promise.allSettled([
    api.post('/biometrics/native/invalidated', { keyId }, okSchema),
    deleteBiometricKey(keyId, win),
  ]);
}

function isKeyInvalidated(error: unknown): boolean {
  return (
    (error instanceof NativeBridgeError && error.code === 'key_invalidated') ||
    (error instanceof ApiError && error.code === 'biometric_key_invalidated')
  );
}

/**
 * Sign-in with the app's key: challenge → `signChallenge` → verify. An invalidated key (the app's
 * `key_invalidated` or the server's `biometric_key_invalidated`) is reported and forgotten, then
 * rejected as `BiometricError('biometric_key_invalidated')`.
 */
export async function signInWithNativeKey(
  api: ApiClient,
  keyId: string,
  promptTitle: string,
  win: Window = window,
): Promise<CurrentUser> {
  try {
    const { challengeId, challenge } = await api.post(
      '/biometrics/native/login/challenge',
      { keyId },
      biometricChallengeSchema,
    );
    const signature = await signChallenge({ keyId, challenge, promptTitle }, win);
    return await api.post(
      '/biometrics/native/login',
      { challengeId, keyId, signature },
      currentUserMiniSchema,
    );
  } catch (error) {
    if (isKeyInvalidated(error)) {
      await forgetInvalidatedKey(api, keyId, win);
      throw new BiometricError('biometric_key_invalidated');
    }
    throw error;
  }
}
