import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/browser';
import { vi } from 'vitest';

export const NEWER_APP_UA =
  'Mozilla/5.0 (Linux; Android 14; Pixel 9; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/126.0 Mobile Safari/537.36 HygieApp/3.2.0 biometry/2.0';
export const CHROME_LINUX_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

/** Pretends the page runs with this user agent. */
export function useUserAgent(userAgent: string): void {
  vi.spyOn(window.navigator, 'userAgent', 'get').mockReturnValue(userAgent);
}

/** What a stubbed `startRegistration` resolves with: a new passkey's credential, as JSON. */
export function registrationResponse(id: string): RegistrationResponseJSON {
  return {
    id,
    rawId: id,
    type: 'public-key',
    response: { clientDataJSON: 'Y2xpZW50', attestationObject: 'YXR0ZXN0' },
    clientExtensionResults: {},
  };
}

/** What a stubbed `startAuthentication` resolves with: a passkey's signed assertion, as JSON. */
export function authenticationResponse(id: string): AuthenticationResponseJSON {
  return {
    id,
    rawId: id,
    type: 'public-key',
    response: { clientDataJSON: 'Y2xpZW50', authenticatorData: 'YXV0aA', signature: 'c2ln' },
    clientExtensionResults: {},
  };
}

/** A browser with WebAuthn (jsdom has none). */
export function withWebAuthn(): void {
  vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
}

export interface BridgeCall {
  name: string;
  payload: string;
  hasCallback: boolean;
}

/**
 * A double of the app's bridge (docs/native-bridge.md): each handler answers a call's parsed
 * payload with the object to send back as JSON (asynchronously, as the app does).
 */
export function installBridge(
  handlers: Record<string, (payload: unknown) => object> = {},
): BridgeCall[] {
  const calls: BridgeCall[] = [];
  const all: Record<string, (payload: unknown) => object> = {
    biometricAvailability: () => ({ ok: true, available: true, kind: 'fingerprint' }),
    deleteBiometricKey: () => ({ ok: true }),
    ...handlers,
  };
  window.HygieNativeBridge = {
    call(name, payload, callback) {
      calls.push({ name, payload, hasCallback: typeof callback === 'function' });
      const handler = all[name];
      if (!callback) return;
      const answer = handler
        ? handler(payload ? JSON.parse(payload) : {})
        : { ok: false, error: 'not_available' };
      setTimeout(() => callback(JSON.stringify(answer)), 0);
    },
  };
  return calls;
}

export function removeBridge(): void {
  delete window.HygieNativeBridge;
}
