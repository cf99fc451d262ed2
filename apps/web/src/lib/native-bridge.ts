/** The object the mobile app injects into its webview (see docs/web.md). */
export interface NativeBridge {
  call(name: string, payload: string, callback?: (result: string) => void): void;
}

declare global {
  interface Window {
    HygieNativeBridge?: NativeBridge;
  }
}

const APP_MARKER = /\bHygieApp\b/;
const BIOMETRY_V2_TAG = /\bbiometry\/2\.0\b/;

/** The newer app version: the app marker carrying the biometry 2.0 tag. */
export function isNewerNativeApp(userAgent: string): boolean {
  return APP_MARKER.test(userAgent) && BIOMETRY_V2_TAG.test(userAgent);
}

export function isAndroidWebView(userAgent: string): boolean {
  return /; wv\)/.test(userAgent);
}

/** iOS webviews (WKWebView) announce AppleWebKit without the `Safari/` token of the browser. */
export function isIosWebView(userAgent: string): boolean {
  return (
    /\b(iPhone|iPad|iPod)\b/.test(userAgent) &&
    /AppleWebKit/.test(userAgent) &&
    !/Safari\//.test(userAgent)
  );
}

/** Running inside the native app wrapper (spec §1). */
export function isNativeApp(userAgent: string): boolean {
  return isNewerNativeApp(userAgent) || isAndroidWebView(userAgent) || isIosWebView(userAgent);
}

export function getNativeBridge(win: Window = window): NativeBridge | null {
  const bridge = win.HygieNativeBridge;
  return bridge && typeof bridge.call === 'function' ? bridge : null;
}

let loadingScreenHidden = false;

/**
 * Tells the newer app to hide its loading screen, once per page, with an empty payload and no
 * callback. Returns whether the call was made.
 */
export function hideNativeLoadingScreen(win: Window = window): boolean {
  if (loadingScreenHidden || !isNewerNativeApp(win.navigator.userAgent)) return false;
  const bridge = getNativeBridge(win);
  if (!bridge) return false;
  loadingScreenHidden = true;
  bridge.call('hideLoadingScreen', '');
  return true;
}

/** Test helper: forget that the loading screen was hidden. */
export function resetNativeLoadingScreen(): void {
  loadingScreenHidden = false;
}

/** The error codes the app answers with (docs/native-bridge.md §5), plus `bridge_error`. */
export type NativeErrorCode =
  'cancelled' | 'not_available' | 'key_invalidated' | 'enrol_failed' | 'bridge_error';

const NATIVE_ERROR_CODES = [
  'cancelled',
  'not_available',
  'key_invalidated',
  'enrol_failed',
] as const satisfies readonly NativeErrorCode[];

/** A bridge answer: a JSON object. */
type NativeAnswer = Record<string, unknown>;

function isNativeAnswer(value: unknown): value is NativeAnswer {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A call the app answered with `{"ok": false, "error": code}` (or could not make). */
export class NativeBridgeError extends Error {
  constructor(readonly code: NativeErrorCode) {
    super(`native bridge: ${code}`);
    this.name = 'NativeBridgeError';
  }
}

/**
 * Calls the bridge with a JSON payload ('' when there is none) and resolves with the JSON answer
 * of its callback. Rejects with a NativeBridgeError: the app's error code, `not_available`
 * without a bridge, `bridge_error` for an answer that is not `{"ok": …}` JSON or a throwing call.
 */
export function callNative(
  name: string,
  payload: object | null,
  win: Window = window,
): Promise<NativeAnswer> {
  return new Promise<NativeAnswer>((resolve, reject) => {
    const bridge = getNativeBridge(win);
    if (!bridge) {
      reject(new NativeBridgeError('not_available'));
      return;
    }
    let answered = false;
    const callback = (result: string) => {
      if (answered) return;
      answered = true;
      let answer: unknown;
      try {
        answer = JSON.parse(result);
      } catch {
        reject(new NativeBridgeError('bridge_error'));
        return;
      }
      if (!isNativeAnswer(answer) || !('ok' in answer)) {
        reject(new NativeBridgeError('bridge_error'));
      } else if (answer.ok === true) {
        resolve(answer);
      } else {
        const error = 'error' in answer ? String(answer.error) : '';
        reject(
          new NativeBridgeError(
            NATIVE_ERROR_CODES.find((code) => code === error) ?? 'bridge_error',
          ),
        );
      }
    };
    try {
      bridge.call(name, payload === null ? '' : JSON.stringify(payload), callback);
    } catch {
      answered = true;
      reject(new NativeBridgeError('bridge_error'));
    }
  });
}

export interface BiometricAvailability {
  available: boolean;
  kind?: 'fingerprint' | 'face' | 'other';
}

/** `biometricAvailability`: whether the device can use biometrics now (false without a bridge). */
export async function biometricAvailability(win: Window = window): Promise<BiometricAvailability> {
  try {
    const answer = await callNative('biometricAvailability', null, win);
    const kind = answer.kind;
    return {
      available: answer.available === true,
      ...((kind === 'fingerprint' || kind === 'face' || kind === 'other') && { kind }),
    };
  } catch {
    return { available: false };
  }
}

export interface CreatedBiometricKey {
  keyId: string;
  publicKey: string;
  signature: string;
}

/** The answer's non-empty text `key`; a missing one is a `bridge_error`. */
function requireString(answer: NativeAnswer, key: string): string {
  const value = answer[key];
  if (typeof value !== 'string' || !value) throw new NativeBridgeError('bridge_error');
  return value;
}

/** `createBiometricKey`: a new P-256 key behind biometrics, and its signature of `challenge`. */
export async function createBiometricKey(
  input: { challenge: string; promptTitle: string; promptSubtitle: string },
  win: Window = window,
): Promise<CreatedBiometricKey> {
  const answer = await callNative('createBiometricKey', input, win);
  return {
    keyId: requireString(answer, 'keyId'),
    publicKey: requireString(answer, 'publicKey'),
    signature: requireString(answer, 'signature'),
  };
}

/** `signChallenge`: the challenge signed by the key after a biometric check. */
export async function signChallenge(
  input: { keyId: string; challenge: string; promptTitle: string },
  win: Window = window,
): Promise<string> {
  const answer = await callNative('signChallenge', input, win);
  return requireString(answer, 'signature');
}

/** `deleteBiometricKey`: forgets the key on the device. Never rejects (best effort). */
export async function deleteBiometricKey(keyId: string, win: Window = window): Promise<boolean> {
  try {
    await callNative('deleteBiometricKey', { keyId }, win);
    return true;
  } catch {
    return false;
  }
}
