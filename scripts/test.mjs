// `npm test`: every suite — unit (domain, web), server (SQLite, and PostgreSQL when
// TEST_DATABASE_URL is set), browser (Playwright in Chromium against the built server) —
// then one closing line "Tests: N passed, N failed".
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const out = path.join(root, 'artefacts', 'results');
fs.mkdirSync(out, { recursive: true });
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function run(command, args, env = {}) {
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  return result.status ?? 1;
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

const suites = [];
function vitest(name, projects) {
  const file = path.join(out, `${name}.json`);
  fs.rmSync(file, { force: true });
  const args = ['vitest', 'run', ...projects.flatMap((p) => ['--project', p])];
  const status = run(npx, [
    ...args,
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${file}`,
  ]);
  const json = readJson(file);
  // A file failing outside its tests (a hook, an import) fails no test: count it as a failure.
  const failedTests = (json?.numFailedTests ?? 0) + (json?.numFailedTestSuites ?? 0);
  suites.push({
    name,
    status,
    passed: json?.numPassedTests ?? 0,
    failed: failedTests || (status === 0 ? 0 : 1),
    skipped: (json?.numPendingTests ?? 0) + (json?.numTodoTests ?? 0),
  });
}

vitest('unit', ['domain', 'web']);
vitest('server', ['server']);

const buildStatus = run(npm, ['run', 'build']);
if (buildStatus !== 0) {
  suites.push({ name: 'build', status: buildStatus, passed: 0, failed: 1, skipped: 0 });
} else {
  const file = path.join(out, 'e2e.json');
  fs.rmSync(file, { force: true });
  const status = run(npm, ['test', '-w', '@hygie/e2e'], { PLAYWRIGHT_JSON_OUTPUT_NAME: file });
  const stats = readJson(file)?.stats;
  suites.push({
    name: 'browser',
    status,
    passed: stats?.expected ?? 0,
    failed: (stats?.unexpected ?? 0) + (stats?.flaky ?? 0) || (status === 0 ? 0 : 1),
    skipped: stats?.skipped ?? 0,
  });
}

console.log('');
for (const s of suites) {
  console.log(
    `${s.name.padEnd(8)} ${s.passed} passed, ${s.failed} failed${s.skipped ? `, ${s.skipped} skipped` : ''}`,
  );
}
const passed = suites.reduce((n, s) => n + s.passed, 0);
const failed = suites.reduce((n, s) => n + s.failed, 0);
const skipped = suites.reduce((n, s) => n + s.skipped, 0);
console.log(`Tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(suites.every((s) => s.status === 0) && failed === 0 ? 0 : 1);
