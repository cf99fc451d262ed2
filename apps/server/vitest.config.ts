import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'server',
    // Every core (vitest's default leaves one to its main process, which is idle meanwhile).
    maxWorkers: availableParallelism(),
    include: ['src/**/*.test.ts'],
    setupFiles: ['src/test/setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
