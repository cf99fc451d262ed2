import { afterEach, describe, expect, it } from 'vitest';
import { installBridge, removeBridge } from '../test/biometrics';
import {
  biometricAvailability,
  callNative,
  createBiometricKey,
  deleteBiometricKey,
  NativeBridgeError,
  signChallenge,
  type NativeErrorCode,
} from './native-bridge';

afterEach(() => removeBridge());

describe('bridge calls (docs/native-bridge.md §3)', () => {
  it('sends JSON payloads, or "" without one, with a callback', async () => {
    const calls = installBridge({ ping: () => ({ ok: true, pong: 1 }) });
    await expect(callNative('ping', null)).resolves.toEqual({ ok: true, pong: 1 });
    await callNative('ping', { a: 'b' });
    expect(calls).toEqual([
      { name: 'ping', payload: '', hasCallback: true },
      { name: 'ping', payload: '{"a":"b"}', hasCallback: true },
    ]);
  });

  it.each<NativeErrorCode>(['cancelled', 'not_available', 'key_invalidated', 'enrol_failed'])(
    'rejects with the app error %s',
    async (code) => {
      installBridge({ x: () => ({ ok: false, error: code }) });
      await expect(callNative('x', null)).rejects.toEqual(new NativeBridgeError(code));
    },
  );

  it('turns unknown errors, non-JSON answers and a throwing bridge into bridge_error', async () => {
    installBridge({ x: () => ({ ok: false, error: 'weird' }), y: () => ({ nope: true }) });
    await expect(callNative('x', null)).rejects.toMatchObject({ code: 'bridge_error' });
    await expect(callNative('y', null)).rejects.toMatchObject({ code: 'bridge_error' });
    window.HygieNativeBridge = { call: (_n, _p, callback) => callback?.('<html>') };
    await expect(callNative('z', null)).rejects.toMatchObject({ code: 'bridge_error' });
    window.HygieNativeBridge = {
      call: () => {
        throw new Error('boom');
      },
    };
    await expect(callNative('z', null)).rejects.toMatchObject({ code: 'bridge_error' });
  });

  it('answers not_available without a bridge', async () => {
    await expect(callNative('x', null)).rejects.toMatchObject({ code: 'not_available' });
    await expect(biometricAvailability()).resolves.toEqual({ available: false });
    await expect(deleteBiometricKey('k')).resolves.toBe(false);
  });

  it('only listens to the first answer', async () => {
    window.HygieNativeBridge = {
      call: (_n, _p, callback) => {
        callback?.('{"ok":true,"n":1}');
        callback?.('{"ok":true,"n":2}');
      },
    };
    await expect(callNative('x', null)).resolves.toEqual({ ok: true, n: 1 });
  });

  it('wraps each call with its payload and checks the answer', async () => {
    const calls = installBridge({
      createBiometricKey: () => ({ ok: true, keyId: 'k', publicKey: 'p', signature: 's' }),
      signChallenge: () => ({ ok: true, signature: 'sig' }),
      biometricAvailability: () => ({ ok: true, available: true, kind: 'face' }),
    });
    await expect(
      createBiometricKey({ challenge: 'c', promptTitle: 't', promptSubtitle: 'u' }),
    ).resolves.toEqual({ keyId: 'k', publicKey: 'p', signature: 's' });
    await expect(signChallenge({ keyId: 'k', challenge: 'c', promptTitle: 't' })).resolves.toBe(
      'sig',
    );
    await expect(biometricAvailability()).resolves.toEqual({ available: true, kind: 'face' });
    await expect(deleteBiometricKey('k')).resolves.toBe(true);
    expect(calls.map((c) => [c.name, c.payload])).toEqual([
      ['createBiometricKey', '{"challenge":"c","promptTitle":"t","promptSubtitle":"u"}'],
      ['signChallenge', '{"keyId":"k","challenge":"c","promptTitle":"t"}'],
      ['biometricAvailability', ''],
      ['deleteBiometricKey', '{"keyId":"k"}'],
    ]);
    installBridge({ signChallenge: () => ({ ok: true }) });
    await expect(
      signChallenge({ keyId: 'k', challenge: 'c', promptTitle: 't' }),
    ).rejects.toMatchObject({ code: 'bridge_error' });
  });
});
