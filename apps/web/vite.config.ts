import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fontPreload } from './font-preload';
import { precompress } from './precompress';
import { routePreload } from './route-preload';
import { FIRST_NAMESPACES } from './src/app/namespaces';

/** A language's first-screen translations (src/locales/<language>/<namespace>.json). */
const FIRST_TRANSLATIONS = new RegExp(
  `/src/locales/(\\w+)/(?:${FIRST_NAMESPACES.join('|')})\\.json$`,
);

// The server serves dist/ with a strict CSP (script-src 'self'): everything, fonts included, is
// bundled; each text file gets a brotli and a gzip copy, sent by Accept-Encoding (docs/web.md).
export default defineConfig({
  plugins: [react(), fontPreload(), routePreload(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsInlineLimit: 0,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // The first screens' translations in one chunk per language: the login page waits for
          // them before its first render, in one request rather than eight.
          groups: [
            {
              debugName: 'first-translations',
              name: (id) => {
                const language = FIRST_TRANSLATIONS.exec(id)?.[1];
                return language ? `locales-${language}` : null;
              },
            },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': 'http://localhost:3000',
      '/oidc': 'http://localhost:3000',
    },
  },
});
