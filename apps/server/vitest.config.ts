import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'server',
    // Every core (vitest's default leaves one to its main process, which is idle meanwhile).
    maxWorkers: availableParallelism(),
    // Files share their worker's modules instead of loading them again each (importing the server
    // was a third of the suite's time). Each file builds its own apps and databases; the few that
    // change process-wide state (the data keys) put it back in afterAll.
    isolate: false,
    include: ['src/**/*.test.ts'],
    setupFiles: ['src/test/setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
