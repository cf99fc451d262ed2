import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'domain',
    include: ['src/**/*.test.ts'],
    // Every core (vitest's default leaves one to its main process, which is idle meanwhile).
    maxWorkers: availableParallelism(),
  },
});
