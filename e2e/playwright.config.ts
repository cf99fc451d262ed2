import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { defineConfig } from '@playwright/test';

// A port chosen once per run (the workers inherit it), so a concurrent run cannot collide.
process.env.E2E_PORT ??= String(20_000 + Math.floor(Math.random() * 20_000));
const port = Number(process.env.E2E_PORT);
// The config is evaluated again in each worker: the data directory is made once and inherited.
process.env.E2E_DATA_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), 'hygie-e2e-'));
const dataDir = process.env.E2E_DATA_DIR;
export const baseURL = `http://localhost:${port}`;
// `npm test` runs the suite in shards side by side (scripts/test.mjs): each keeps its own artefacts.
const shard = process.env.E2E_SHARD ? `-${process.env.E2E_SHARD}` : '';
// The mock Pro Santé Connect and FranceConnect (mock-providers.mjs): two more ports, also per run.
process.env.E2E_IDP_PORT ??= String(40_000 + Math.floor(Math.random() * 20_000));
const pscPort = Number(process.env.E2E_IDP_PORT);
const franceConnectPort = pscPort + 1;
const MOCK_CLIENT_SECRET = 'a-client-secret-of-the-portal-at-the-mock-provider';

export default defineConfig({
  testDir: './tests',
  outputDir: `../artefacts/test-results${shard}`,
  fullyParallel: false,
  workers: 1,
  retries: 0,
  // Nothing waits out a cooldown (the server clock is moved), but some journeys run axe on many
  // pages, on machines that are shared and slow.
  timeout: 120_000,
  expect: { timeout: 7_000 },
  reporter: [
    ['list'],
    [
      'json',
      { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ?? '../artefacts/results/e2e.json' },
    ],
    ['html', { outputFolder: `../artefacts/playwright-report${shard}`, open: 'never' }],
  ],
  use: {
    baseURL,
    // French users' browsers: the portal's default language is also the browser's.
    locale: 'fr-FR',
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: {
      // Debian's headless shell (see ensure-chromium.mjs); CHROMIUM_PATH may name a full Chromium.
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: [
    {
      // Started first: the portal discovers them when a sign-in with a provider starts.
      command: 'node mock-providers.mjs',
      url: `http://127.0.0.1:${franceConnectPort}/__mock/ready`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        PORTAL_URL: baseURL,
        MOCK_PSC_PORT: String(pscPort),
        MOCK_FRANCECONNECT_PORT: String(franceConnectPort),
        MOCK_CLIENT_SECRET,
      },
    },
    {
      // The real built server on a temporary SQLite database, as `npm start` runs it (test clock on).
      command: 'node ../apps/server/dist/server.js',
      url: `${baseURL}/api/ready`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        NODE_ENV: 'test',
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_URL: baseURL,
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        ADMIN_EMAIL: 'admin@hygie.test',
        ADMIN_PASSWORD: 'Correct-Horse-42',
        SHUTDOWN_GRACE_MS: '0',
        // The suite moves the server's clock (/api/test/clock) instead of waiting or editing rows.
        HYGIE_TEST_CLOCK: '1',
        // The mock providers (docs/identity-providers.md): the defaults' scopes and levels.
        PSC_ISSUER: `http://127.0.0.1:${pscPort}`,
        PSC_CLIENT_ID: 'hygie-psc',
        PSC_CLIENT_SECRET: MOCK_CLIENT_SECRET,
        FRANCECONNECT_ISSUER: `http://127.0.0.1:${franceConnectPort}`,
        FRANCECONNECT_CLIENT_ID: 'hygie-franceconnect',
        FRANCECONNECT_CLIENT_SECRET: MOCK_CLIENT_SECRET,
        IDP_TIMEOUT_MS: '3000',
      },
    },
  ],
});
