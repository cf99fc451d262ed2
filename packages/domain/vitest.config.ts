import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'domain',
    include: ['src/**/*.test.ts'],
    // Every core (vitest's default leaves one to its main process, which is idle meanwhile).
    maxWorkers: availableParallelism(),
    // The property tests run a hundred inputs or more through the validation rules (the password's
    // dictionary among them): a second or two alone, past vitest's 5 s default on a loaded machine
    // (the unit suite runs beside the browser suite, scripts/test.mjs). As the web project.
    testTimeout: 30_000,
    // The files share their worker's modules: the domain is pure functions (no clock, no
    // environment, no mocks in its tests), and importing it again for each file was three
    // quarters of the project's time (56 → 12 s on the loaded 2-core machine; shuffled orders pass).
    isolate: false,
  },
});
