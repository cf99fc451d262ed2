import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  hideNativeLoadingScreen,
  isAndroidWebView,
  isIosWebView,
  isNativeApp,
  isNewerNativeApp,
  resetNativeLoadingScreen,
  type NativeBridge,
} from './native-bridge';
import { removeBridge } from '../test/biometrics';

const UA = {
  newerApp:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/126.0 Mobile Safari/537.36 HygieApp/3.2 biometry/2.0',
  olderApp:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/126.0 Mobile Safari/537.36 HygieApp/2.9 biometry/1.0',
  androidWebView:
    'Mozilla/5.0 (Linux; Android 13; SM-S911B; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/125.0 Mobile Safari/537.36',
  iosWebView:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148',
  iosSafari:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  androidChrome:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36',
  desktopFirefox: 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
};

describe('native app detection', () => {
  it.each([
    ['newerApp', true, true],
    ['olderApp', true, false],
    ['androidWebView', true, false],
    ['iosWebView', true, false],
    ['iosSafari', false, false],
    ['androidChrome', false, false],
    ['desktopFirefox', false, false],
  ] as const)('%s: native %s, newer version %s', (name, native, newer) => {
    expect(isNativeApp(UA[name])).toBe(native);
    expect(isNewerNativeApp(UA[name])).toBe(newer);
  });

  it('recognises each webview kind', () => {
    expect(isAndroidWebView(UA.androidWebView)).toBe(true);
    expect(isAndroidWebView(UA.androidChrome)).toBe(false);
    expect(isIosWebView(UA.iosWebView)).toBe(true);
    expect(isIosWebView(UA.iosSafari)).toBe(false);
  });

  it('needs both the marker and the biometry 2.0 tag for the newer app', () => {
    expect(isNewerNativeApp('Mozilla/5.0 biometry/2.0')).toBe(false);
    expect(isNewerNativeApp('Mozilla/5.0 HygieApp/3.0')).toBe(false);
  });
});

/** The test's window, with this user agent and this bridge (none without one). */
function fakeWindow(userAgent: string, bridge?: NativeBridge): Window {
  vi.spyOn(window.navigator, 'userAgent', 'get').mockReturnValue(userAgent);
  if (bridge) window.HygieNativeBridge = bridge;
  else removeBridge();
  return window;
}

describe('hideLoadingScreen', () => {
  afterEach(() => {
    resetNativeLoadingScreen();
    removeBridge();
    vi.restoreAllMocks();
  });

  it('calls the bridge exactly once with an empty payload and no callback', () => {
    const call = vi.fn();
    const win = fakeWindow(UA.newerApp, { call });
    expect(hideNativeLoadingScreen(win)).toBe(true);
    expect(hideNativeLoadingScreen(win)).toBe(false);
    expect(call).toHaveBeenCalledTimes(1);
    expect(call.mock.calls[0]).toEqual(['hideLoadingScreen', '']);
    expect(call.mock.calls[0]).toHaveLength(2);
  });

  it.each(['olderApp', 'androidWebView', 'iosWebView', 'desktopFirefox'] as const)(
    'never calls it for %s',
    (name) => {
      const call = vi.fn();
      expect(hideNativeLoadingScreen(fakeWindow(UA[name], { call }))).toBe(false);
      expect(call).not.toHaveBeenCalled();
    },
  );

  it('does nothing when the newer app has not injected the bridge', () => {
    expect(hideNativeLoadingScreen(fakeWindow(UA.newerApp))).toBe(false);
  });
});
