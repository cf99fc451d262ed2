import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The server serves dist/ with a strict CSP (script-src 'self'): everything, fonts included, is bundled.
export default defineConfig({
  plugins: [react()],
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
