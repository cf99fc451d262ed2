// The login page's first load in Chromium, against the real built server: the JavaScript it
// fetches (requests, raw bytes, gzip bytes, bytes on the wire, what came compressed) and its
// Largest Contentful Paint with the CPU slowed 4× (CDP Emulation.setCPUThrottlingRate), and when
// its form first takes input (the page is drawn by the server; the form waits for the client).
//
// The baseline, measured in the same run with the same browser and throttling: a minimal static
// page holding a comparable text block (a heading, a paragraph, two labels and a button), served
// by a bare node:http server. The machines are shared and noisy, so the ratio login ÷ baseline is
// the figure to compare between runs; the JS weight is compared with the 100 kB goal.
//
//   npm run build && npm run bench:web -w @hygie/bench
//   BENCH_WEB_RUNS=7 BENCH_WEB_THROTTLE=4 …
//
// BENCH_WEB_COMPARE=<another build's apps/web/dist> (its dist-ssr beside it) also serves that build
// from a second server (the same server code) and loads its login page in the same rounds,
// alternating with this build's: a before/after comparison under the same load.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { chromium } from '@playwright/test';
import { freePort, root, startServer } from './portal.mjs';

const RUNS = Number(process.env.BENCH_WEB_RUNS ?? 5);
const COMPARE_DIST = process.env.BENCH_WEB_COMPARE;
const THROTTLE = Number(process.env.BENCH_WEB_THROTTLE ?? 4);
const JS_GOAL_BYTES = 100_000;
const LCP_GOAL_MS = 700;
const LOGIN_PATH = '/security/login';

// A text block of the login page's size class, nothing else: no script, no web font.
const BASELINE_HTML = `<!doctype html>
<html lang="fr"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Connexion</title>
<style>body{font-family:system-ui,sans-serif;margin:0;padding:32px;max-width:420px}h1{font-size:2rem;font-weight:500}label{display:block;margin:16px 0 4px}input{width:100%;padding:12px}button{margin-top:24px;padding:10px 16px}</style>
</head><body><main>
<h1>Connexion</h1>
<p>Connectez-vous avec votre adresse e-mail ou votre identifiant pour accéder à votre espace, à vos services et aux plateformes de santé qui vous sont ouvertes.</p>
<form><label for="u">Adresse e-mail ou identifiant</label><input id="u"><label for="p">Mot de passe</label><input id="p" type="password"><button type="button">Se connecter</button></form>
</main></body></html>`;

function startBaselineServer(port) {
  const server = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(BASELINE_HTML);
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

// Records the largest contentful paint as the page goes (the last entry is the one that counts),
// and when the login form first takes input (drawn by the server, it waits for the client's code).
const OBSERVE_LCP = `
  window.__lcp = 0;
  window.__usable = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__lcp = entry.startTime;
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  new MutationObserver((records, observer) => {
    const field = document.getElementById('login-username');
    if (field && !field.matches(':disabled')) {
      window.__usable = performance.now();
      observer.disconnect();
    }
  }).observe(document, { subtree: true, childList: true, attributes: true });
`;

/** One cold load (fresh context: empty cache) of `url`; its LCP and its scripts. */
async function load(browser, url, ready) {
  const context = await browser.newContext({ locale: 'fr-FR' });
  const page = await context.newPage();
  await page.addInitScript(OBSERVE_LCP);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLE });
  const responses = [];
  page.on('response', (response) => responses.push(response));
  await page.goto(url, { waitUntil: 'load' });
  await ready(page);
  await page.waitForLoadState('networkidle');
  const lcp = await page.evaluate(() => window.__lcp);
  const usable = await page.evaluate(() => window.__usable);
  const scripts = [];
  const styles = [];
  for (const response of responses) {
    const type = response.request().resourceType();
    if (type !== 'script' && type !== 'stylesheet') continue;
    const body = await response.body();
    const sizes = await response.request().sizes();
    const entry = {
      url: new URL(response.url()).pathname,
      raw: body.length,
      gzip: zlib.gzipSync(body, { level: 9 }).length,
      wire: sizes.responseBodySize,
      encoding: response.headers()['content-encoding'] ?? 'identity',
      cacheControl: response.headers()['cache-control'] ?? '',
    };
    (type === 'script' ? scripts : styles).push(entry);
  }
  await context.close();
  return { lcp, usable, scripts, styles };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

const sum = (entries, key) => entries.reduce((total, entry) => total + entry[key], 0);
const kB = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;

const baselinePort = await freePort();
const server = await startServer('sqlite');
const compareServer = COMPARE_DIST
  ? await startServer('sqlite', { WEB_DIST_DIR: path.resolve(COMPARE_DIST) })
  : null;
const baselineServer = await startBaselineServer(baselinePort);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell',
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});

try {
  const { base } = server;
  const baselineUrl = `http://127.0.0.1:${baselinePort}/`;
  const index = await fetch(`${base}${LOGIN_PATH}`);
  if (!(await index.text()).includes('<div id="root">'))
    throw new Error('the server does not serve the built web client (run npm run build)');

  const loginReady = (page) =>
    page.waitForFunction(() => window.__usable > 0, null, { timeout: 30_000 });
  const baselineReady = (page) => page.locator('h1').waitFor();

  // One warm-up each (the server's and the browser's first requests), then alternate.
  await load(browser, `${base}${LOGIN_PATH}`, loginReady);
  await load(browser, baselineUrl, baselineReady);
  if (compareServer) await load(browser, `${compareServer.base}${LOGIN_PATH}`, loginReady);
  const login = [];
  const baseline = [];
  const compared = [];
  for (let run = 0; run < RUNS; run++) {
    baseline.push(await load(browser, baselineUrl, baselineReady));
    login.push(await load(browser, `${base}${LOGIN_PATH}`, loginReady));
    if (compareServer) {
      compared.push(await load(browser, `${compareServer.base}${LOGIN_PATH}`, loginReady));
    }
  }

  const first = login[0];
  const scripts = first.scripts;
  const js = {
    requests: scripts.length,
    raw: sum(scripts, 'raw'),
    gzip: sum(scripts, 'gzip'),
    wire: sum(scripts, 'wire'),
    compressed: scripts.filter((s) => s.encoding !== 'identity').length,
    immutable: scripts.filter((s) => s.cacheControl.includes('immutable')).length,
    encodings: [...new Set(scripts.map((s) => s.encoding))],
  };
  const css = {
    requests: first.styles.length,
    raw: sum(first.styles, 'raw'),
    wire: sum(first.styles, 'wire'),
    compressed: first.styles.filter((s) => s.encoding !== 'identity').length,
  };
  const loginLcp = median(login.map((r) => r.lcp));
  const loginUsable = median(login.map((r) => r.usable));
  const baselineLcp = median(baseline.map((r) => r.lcp));
  const report = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model,
    browser: browser.version(),
    cpuThrottle: THROTTLE,
    runs: RUNS,
    js,
    css,
    lcpMs: {
      login: Math.round(loginLcp),
      baseline: Math.round(baselineLcp),
      loginUsable: Math.round(loginUsable),
      loginRuns: login.map((r) => Math.round(r.lcp)),
      baselineRuns: baseline.map((r) => Math.round(r.lcp)),
      ...(compareServer && {
        compared: Math.round(median(compared.map((r) => r.lcp))),
        comparedUsable: Math.round(median(compared.map((r) => r.usable))),
        comparedRuns: compared.map((r) => Math.round(r.lcp)),
      }),
    },
    ratios: {
      lcpLoginOverBaseline: Number((loginLcp / baselineLcp).toFixed(2)),
      usableLoginOverBaseline: Number((loginUsable / baselineLcp).toFixed(2)),
      jsGzipOverGoal: Number((js.gzip / JS_GOAL_BYTES).toFixed(2)),
      jsWireOverGoal: Number((js.wire / JS_GOAL_BYTES).toFixed(2)),
    },
    scripts,
  };

  const rows = [
    ['measure', 'value', 'goal', 'ratio'],
    ['login JS requests', String(js.requests), '', ''],
    ['login JS raw', kB(js.raw), '', ''],
    ['login JS gzip', kB(js.gzip), kB(JS_GOAL_BYTES), `${report.ratios.jsGzipOverGoal} of goal`],
    [
      'login JS on the wire',
      kB(js.wire),
      kB(JS_GOAL_BYTES),
      `${report.ratios.jsWireOverGoal} of goal`,
    ],
    ['JS compressed', `${js.compressed}/${js.requests} (${js.encodings.join(', ')})`, 'all', ''],
    ['JS immutable', `${js.immutable}/${js.requests}`, 'all', ''],
    ['CSS', `${css.requests} req, ${kB(css.wire)} wire, ${css.compressed} compressed`, '', ''],
    [`baseline LCP ×${THROTTLE} CPU`, `${report.lcpMs.baseline} ms`, '', '1'],
    [
      `login LCP ×${THROTTLE} CPU`,
      `${report.lcpMs.login} ms`,
      `${LCP_GOAL_MS} ms`,
      `${report.ratios.lcpLoginOverBaseline}× baseline`,
    ],
    [
      `login form usable ×${THROTTLE}`,
      `${report.lcpMs.loginUsable} ms`,
      '',
      `${report.ratios.usableLoginOverBaseline}× baseline LCP`,
    ],
  ];
  if (compareServer) {
    rows.push([
      `compared build LCP ×${THROTTLE}`,
      `${report.lcpMs.compared} ms`,
      `${LCP_GOAL_MS} ms`,
      `${(report.lcpMs.compared / baselineLcp).toFixed(2)}× baseline`,
    ]);
  }
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  for (const row of rows) console.log(row.map((cell, i) => cell.padEnd(widths[i])).join('  '));
  console.log(
    `medians of ${RUNS} cold loads each; runs: login ${report.lcpMs.loginRuns.join(', ')} ms, baseline ${report.lcpMs.baselineRuns.join(', ')} ms`,
  );
  if (compareServer) {
    console.log(`compared build (${COMPARE_DIST}): ${report.lcpMs.comparedRuns.join(', ')} ms`);
  }

  fs.mkdirSync(path.join(import.meta.dirname, 'results'), { recursive: true });
  const file = path.join(
    import.meta.dirname,
    'results',
    `web-${report.date.replace(/[:.]/g, '-')}.json`,
  );
  fs.writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`written ${path.relative(root, file)}`);
} finally {
  await browser.close();
  baselineServer.close();
  await server.stop();
  await compareServer?.stop();
}
