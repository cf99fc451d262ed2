import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fontPreload } from './font-preload';
import { precompress } from './precompress';
import { routePreload } from './route-preload';

// The server serves dist/ with a strict CSP (script-src 'self'): everything, fonts included, is
// bundled; each text file gets a brotli and a gzip copy, sent by Accept-Encoding (docs/web.md).
export default defineConfig({
  plugins: [react(), fontPreload(), routePreload(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsInlineLimit: 0,
  },
  server: {
    port: 5173,
    proxy: {
      '/api': 'http://localhost:3000',
      '/oidc': 'http://localhost:3000',
    },
  },
});
