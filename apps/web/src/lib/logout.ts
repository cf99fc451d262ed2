import { browser } from './browser';

/** Logout is a browser navigation (spec §7): the server ends the session and redirects to login. */
export function logout(targetUri?: string): void {
  browser.assign('/api/logout' + (targetUri ? '?target_uri=' + encodeURIComponent(targetUri) : ''));
}
