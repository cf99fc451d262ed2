import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// A findBy/waitFor time-out is a failure detector, not a wait: passing tests never reach it. A
// screen's first render in a test file (MUI styles computed in jsdom) can take over a second on
// a loaded 2-core CI runner, so the default 1 s would fail correct tests; see vitest.config.ts.
configure({ asyncUtilTimeout: 5_000 });

afterEach(() => {
  // A file run in Node (`@vitest-environment node`: the server's renderer) has no page to clean.
  if (typeof document === 'undefined') return;
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
  document.documentElement.lang = 'fr';
  document.documentElement.dir = 'ltr';
  document.cookie.split(';').forEach((cookie) => {
    const name = cookie.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  });
});
