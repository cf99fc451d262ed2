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
// `vite build --ssr` builds the renderer of the pages the server draws (src/app/server-render.tsx)
// into dist-ssr/, with its dependencies: the server imports it as it is.
export default defineConfig(({ isSsrBuild = false }) => ({
  plugins: isSsrBuild ? [react()] : [react(), fontPreload(), routePreload(), precompress()],
  ssr: { noExternal: true },
  // The renderer bundles React: its production build, whatever NODE_ENV the server runs with.
  ...(isSsrBuild && { define: { 'process.env.NODE_ENV': JSON.stringify('production') } }),
  build: {
    outDir: isSsrBuild ? 'dist-ssr' : 'dist',
    emptyOutDir: true,
    copyPublicDir: !isSsrBuild,
    assetsInlineLimit: 0,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // The first screens' translations in one chunk per language: the login page waits for
          // them before its first render, in one request rather than eight.
          groups: [
            {
              // Vite's helper for dynamic imports, which the entry imports, apart: in the first
              // load's chunk it made the entry import that chunk, so the browser evaluated all of
              // it (about 200 ms at 4× CPU throttling) whenever the scripts came in before the
              // first frame, holding back the drawn page's paint. Apart, the entry is evaluated
              // alone, and imports the client after the first frame (app/main.tsx).
              debugName: 'preload-helper',
              name: 'preload-helper',
              test: /vite\/preload-helper/,
              priority: 3,
            },
            {
              debugName: 'first-translations',
              name: (id) => {
                const language = FIRST_TRANSLATIONS.exec(id)?.[1];
                return language ? `locales-${language}` : null;
              },
            },
            {
              // The login page's island (src/app/island/start.tsx, what a page the server drew
              // runs first: React and the login page's views) with everything it imports, in one
              // chunk: each request costs the browser's main thread before the first paint (about
              // 15 ms at 4× CPU throttling). First, so that the whole client's chunk below
              // imports React and the shared views from it.
              debugName: 'island',
              name: 'island',
              test: /\/src\/app\/island\/start\.tsx$/,
              includeDependenciesRecursively: true,
              priority: 2,
            },
            {
              // The whole client's first chunk: its start, the security layout, the login page's
              // route and the island's sign-in actions with everything they import but the
              // island's (dynamic imports stay apart). The island fetches it at the page's first
              // interaction; a page the server did not draw starts with it.
              debugName: 'first-load',
              name: 'first',
              test: /\/src\/(app\/boot|app\/layouts\/security-layout|features\/auth\/login-page|app\/island\/actions)\.tsx?$/,
              includeDependenciesRecursively: true,
              priority: 1,
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
}));
