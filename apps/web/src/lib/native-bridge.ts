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
