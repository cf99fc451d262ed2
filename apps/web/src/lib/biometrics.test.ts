import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  CHROME_LINUX_UA,
  installBridge,
  NEWER_APP_UA,
  removeBridge,
  useUserAgent,
  withWebAuthn,
} from '../test/biometrics';
import {
  guessDevice,
  isIpAddressHost,
  nativeBiometricsSupported,
  passkeysSupported,
  shouldOfferBiometricEnrolment,
} from './biometrics';

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  removeBridge();
});

describe('biometrics on this device', () => {
  it.each([
    [CHROME_LINUX_UA, { browser: 'Chrome', os: 'Linux' }],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36 Edg/131.0',
      { browser: 'Edge', os: 'Windows' },
    ],
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
      { browser: 'Safari', os: 'macOS' },
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
      { browser: 'Safari', os: 'iOS' },
    ],
    [
      'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
      { browser: 'Firefox', os: 'Linux' },
    ],
    ['curl/8', { browser: null, os: null }],
  ])('guesses the device of %s', (ua, device) => {
    expect(guessDevice(ua)).toEqual(device);
  });

  it('offers passkeys only in browsers with WebAuthn', () => {
    useUserAgent(CHROME_LINUX_UA);
    expect(passkeysSupported()).toBe(false);
    withWebAuthn();
    expect(passkeysSupported()).toBe(true);
    useUserAgent(NEWER_APP_UA);
    expect(passkeysSupported()).toBe(false);
  });

  it.each([
    ['192.168.1.20', true],
    ['10.0.0.1', true],
    ['[::1]', true],
    ['[2001:db8::1]', true],
    ['::1', true],
    ['localhost', false],
    ['portail.hygie.fr', false],
    ['1.2.3.4.example.fr', false],
  ])('tells the IP address host %j (%s)', (hostname, ip) => {
    expect(isIpAddressHost(hostname)).toBe(ip);
  });

  it('offers no passkey on a portal reached by its IP address', () => {
    useUserAgent(CHROME_LINUX_UA);
    withWebAuthn();
    expect(passkeysSupported(window, 'portail.hygie.fr')).toBe(true);
    expect(passkeysSupported(window, '192.168.1.20')).toBe(false);
    expect(passkeysSupported(window, '[::1]')).toBe(false);
  });

  it('asks to enrol in the newer app with its bridge, no key and no refusal', () => {
    useUserAgent(NEWER_APP_UA);
    expect(nativeBiometricsSupported()).toBe(false);
    installBridge();
    expect(shouldOfferBiometricEnrolment()).toBe(true);
    localStorage.setItem('biometrics.declined', '1');
    expect(shouldOfferBiometricEnrolment()).toBe(false);
    localStorage.clear();
    localStorage.setItem('biometrics.keyId', 'k');
    expect(shouldOfferBiometricEnrolment()).toBe(false);
    localStorage.clear();
    useUserAgent(CHROME_LINUX_UA);
    expect(shouldOfferBiometricEnrolment()).toBe(false);
  });
});
