// `npm test`: every suite — unit (domain, web), server (SQLite, and PostgreSQL when
// TEST_DATABASE_URL is set), browser (Playwright in Chromium against the built server) —
// then one closing line "Tests: N passed, N failed".
//
// The browser suite waits on its pages far more than it computes (its runner, Chromium and the
// server use about a third of a core together): it runs beside the unit and server suites, which
// keep the cores busy, its lines prefixed with "[browser]". BROWSER_ALONGSIDE=0 runs it after them.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const out = path.join(root, 'artefacts', 'results');
fs.mkdirSync(out, { recursive: true });
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Runs a command with the terminal's output; resolves to its exit status. */
function run(command, args, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, ...env },
    });
    child.on('error', () => resolve(1));
    child.on('close', (code) => resolve(code ?? 1));
  });
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

const suites = [];
async function vitest(name, projects) {
  const file = path.join(out, `${name}.json`);
  fs.rmSync(file, { force: true });
  const args = ['vitest', 'run', ...projects.flatMap((p) => ['--project', p])];
  const status = await run(npx, [
    ...args,
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${file}`,
  ]);
  const json = readJson(file);
  // A file failing outside its tests (a hook, an import) fails no test: count it as a failure
  // (only such files: a file whose tests failed is counted by its tests).
  const brokenFiles = (json?.testResults ?? []).filter(
    (file) =>
      file.status === 'failed' && !file.assertionResults?.some((test) => test.status === 'failed'),
  ).length;
  const failedTests = (json?.numFailedTests ?? 0) + brokenFiles;
  suites.push({
    name,
    status,
    passed: json?.numPassedTests ?? 0,
    failed: failedTests || (status === 0 ? 0 : 1),
    skipped: (json?.numPendingTests ?? 0) + (json?.numTodoTests ?? 0),
  });
}

// TEST_SUITES=browser (or unit,server…) runs some of them; unset, all.
const wanted = new Set((process.env.TEST_SUITES ?? 'unit,server,browser').split(','));
const alongside = process.env.BROWSER_ALONGSIDE !== '0';
let browser = Promise.resolve(undefined);
if (wanted.has('browser') && alongside) browser = buildAndBrowse('[browser] ');
if (wanted.has('unit')) await vitest('unit', ['domain', 'web']);
if (wanted.has('server')) await vitest('server', ['server']);
if (wanted.has('browser') && !alongside) browser = buildAndBrowse('');
const browserResult = await browser;
if (browserResult) suites.push(browserResult);

/** The build the browser suite runs against, then the suite; a failed build counts as a failure. */
async function buildAndBrowse(prefix) {
  const buildStatus = await runPrefixed(npm, ['run', 'build'], root, prefix, {});
  if (buildStatus !== 0)
    return { name: 'build', status: buildStatus, passed: 0, failed: 1, skipped: 0 };
  return browserSuite(prefix);
}

/**
 * The browser suite in E2E_SHARDS Playwright processes side by side: each starts its own server,
 * data directory and mock providers (playwright.config.ts picks free ports per process), so the
 * journeys of one cannot see the other's clock or accounts. One shard per two cores by default —
 * one on a 2-core runner, where two shards made journeys miss their time-outs (a shard's own
 * processes use about a third of a core, but its journeys' bursts come together).
 */
async function browserSuite(prefix) {
  const ensure = await runPrefixed(process.execPath, ['e2e/ensure-chromium.mjs'], root, prefix, {});
  if (ensure !== 0) return { name: 'browser', status: ensure, passed: 0, failed: 1, skipped: 0 };
  const count = Math.max(
    1,
    Number(process.env.E2E_SHARDS ?? Math.floor(availableParallelism() / 2)),
  );
  const shards = Array.from({ length: count }, (_, i) => i + 1);
  const results = await Promise.all(
    shards.map((shard) => {
      const file = path.join(out, count === 1 ? 'e2e.json' : `e2e-${shard}.json`);
      fs.rmSync(file, { force: true });
      const args = ['playwright', 'test', ...(count === 1 ? [] : [`--shard=${shard}/${count}`])];
      return runPrefixed(
        npx,
        args,
        path.join(root, 'e2e'),
        count === 1 ? prefix : `${prefix}[${shard}/${count}] `,
        {
          PLAYWRIGHT_JSON_OUTPUT_NAME: file,
          E2E_SHARD: count === 1 ? '' : String(shard),
        },
      ).then((status) => ({ status, stats: readJson(file)?.stats }));
    }),
  );
  const sum = (pick) => results.reduce((n, r) => n + (r.stats ? pick(r.stats) : 0), 0);
  const status = results.find((r) => r.status !== 0)?.status ?? 0;
  const failed = sum((s) => (s.unexpected ?? 0) + (s.flaky ?? 0));
  return {
    name: 'browser',
    status,
    passed: sum((s) => s.expected ?? 0),
    failed: failed || (status === 0 && results.every((r) => r.stats) ? 0 : 1),
    skipped: sum((s) => s.skipped ?? 0),
  };
}

/** Runs a command, its output line by line with a prefix (which shard said it). */
function runPrefixed(command, args, cwd, prefix, env) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
    });
    for (const [stream, sink] of [
      [child.stdout, process.stdout],
      [child.stderr, process.stderr],
    ]) {
      let pending = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk) => {
        const lines = (pending + chunk).split('\n');
        pending = lines.pop() ?? '';
        for (const line of lines) sink.write(`${prefix}${line}\n`);
      });
      stream.on('end', () => {
        if (pending) sink.write(`${prefix}${pending}\n`);
      });
    }
    child.on('error', () => resolve(1));
    child.on('close', (code) => resolve(code ?? 1));
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
