import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  test: {
    name: 'web',
    // Every core (vitest's default leaves one to its main process, which is idle meanwhile).
    maxWorkers: availableParallelism(),
    environment: 'jsdom',
    // Files share their worker's modules and document instead of loading MUI, the screens and
    // jsdom again each (docs/decisions.md). The setup file puts back what a test leaves behind.
    isolate: false,
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
    // The one place for slow-machine margins (with asyncUtilTimeout in the setup file): a test
    // rendering a large form and running axe takes about a second idle and several times that on
    // a loaded 2-core runner. No test waits for this; it only bounds a hung one.
    testTimeout: 30_000,
  },
});
