import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, vi } from 'vitest';
import { resetNativeLoadingScreen } from '../lib/native-bridge';
import { emotionCache } from '../lib/theme';

// A findBy/waitFor time-out is a failure detector, not a wait: passing tests never reach it. A
// screen's first render in a test file (MUI styles computed in jsdom) can take over a second on
// a loaded 2-core CI runner, so the default 1 s would fail correct tests; see vitest.config.ts.
configure({ asyncUtilTimeout: 5_000 });

// The files of a worker share its modules and its document (vitest.config.ts `isolate: false`):
// whatever a test or a file changes that outlives it is put back here, in the one file that runs
// before every test file (a hook registered by an imported helper would run in the first file
// that imports it only).
afterEach(() => {
  // A file run in Node (`@vitest-environment node`: the server's renderer) has no page to clean.
  if (typeof document === 'undefined') return;
  cleanup();
  // The whole client asks the app once per page to hide its loading screen (AppRoot): a test
  // rendering it inside the app would leave that done for the next file's.
  resetNativeLoadingScreen();
  localStorage.clear();
  sessionStorage.clear();
  document.documentElement.lang = 'fr';
  document.documentElement.dir = 'ltr';
  document.cookie.split(';').forEach((cookie) => {
    const name = cookie.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  });
  // Emotion keeps every rule it ever inserted, one <style> element each outside production, and
  // jsdom's getComputedStyle walks them all: without this, each test rendering screens is slower
  // than the one before it, and axe (which reads computed styles for every node) most of all.
  // The caches forget their rules and their elements go, so every test starts from the styles
  // of its own render (signed-in-screens: 61 s → 31 s).
  for (const direction of ['ltr', 'rtl'] as const) {
    const cache = emotionCache(direction);
    cache.sheet.flush();
    for (const key of Object.keys(cache.inserted)) delete cache.inserted[key];
  }
});

afterAll(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
});
