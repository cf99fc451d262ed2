// The browser suite drives Debian's Chromium in its headless shell (the same engine without the
// browser's window and services: what Playwright itself runs headless, and a third faster than the
// full browser on a 2-core runner). Install it when missing (as root, from Debian's packages), or
// stop with one line saying how.
import { execSync } from 'node:child_process';
import fs from 'node:fs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell';
if (!fs.existsSync(CHROMIUM)) {
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!root) {
    console.error(
      `Chromium is missing at ${CHROMIUM}: run "sudo apt-get update && sudo apt-get install -y chromium-headless-shell" (or set CHROMIUM_PATH).`,
    );
    process.exit(1);
  }
  console.log('Installing Chromium from Debian packages…');
  execSync(
    'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium-headless-shell',
    {
      stdio: 'inherit',
    },
  );
}
