import { useSyncExternalStore } from 'react';

const noSubscription = () => () => {};

/**
 * A fact of the browser the server cannot know (what it supports, whether it is the mobile app):
 * `read()` in the browser, `serverValue` on the server (app/server-render.tsx) and while React
 * hydrates the server's HTML, after which React renders again with `read()`. The hydrated page
 * thus starts as the server drew it. `read` must be cheap and return a primitive: React calls it
 * on every render and compares the results.
 */
export function useBrowserValue<T extends string | number | boolean | null>(
  read: () => T,
  serverValue: T,
): T {
  return useSyncExternalStore(noSubscription, read, () => serverValue);
}

/** False on the server and during hydration, true once the page's code runs in the browser. */
export function useHydrated(): boolean {
  return useBrowserValue(() => true, false);
}
