// The portal in the benchmark's own process, for the benchmarks that inject their requests
// (bench/me-inject.mjs, bench/sign-in-inject.mjs): bundled from a checkout's sources as the
// server's build does, and started as `npm start` would in production (no dev outbox, no test
// clock) on a temporary SQLite file or a fresh PostgreSQL database.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { createPostgresDatabase, productionEnv } from './portal.mjs';

/**
 * The portal's `buildApp` and `loadConfig`, bundled from `target`'s sources as build.mjs does,
 * with `cleanup()` to remove the bundle (written beside the server's own build, where its
 * dependencies resolve).
 */
export async function bundlePortal(target) {
  const outfile = path.join(
    target,
    'apps',
    'server',
    'dist',
    `bench-inject-${process.pid}`,
    'app.mjs',
  );
  await build({
    stdin: {
      contents:
        "export { buildApp } from './src/app.ts'; export { loadConfig } from './src/config.ts';",
      resolveDir: path.join(target, 'apps', 'server'),
      sourcefile: 'bench-inject-entry.ts',
      loader: 'ts',
    },
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node24',
    format: 'esm',
    sourcemap: true,
    packages: 'external',
    alias: { '@hygie/domain': path.join(target, 'packages', 'domain', 'src', 'index.ts') },
    logLevel: 'warning',
  });
  const module = await import(outfile);
  return { ...module, cleanup: () => fs.rmSync(path.dirname(outfile), { recursive: true }) };
}

/**
 * The bundled portal on `kind` ('sqlite' or 'postgres'), listening on a port of its own for what
 * a benchmark does over a socket before it injects: `{ app, ctx, address, stop() }`. `env` adds
 * to the production environment.
 */
export async function startInProcess(kind, portal, env = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hygie-bench-inject-'));
  const created = kind === 'postgres' ? await createPostgresDatabase('hygie_inject') : null;
  const config = portal.loadConfig({
    ...process.env,
    ...productionEnv({ port: 0, dataDir }),
    ...(created ? { DATABASE_URL: created.url } : {}),
    ...env,
  });
  const { app, ctx } = await portal.buildApp(config, { renderPage: null });
  const stop = async () => {
    await app.close();
    await created?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const address = await app.listen({ host: '127.0.0.1', port: 0 });
    return { app, ctx, address, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

// The process's writes to its sockets — the database's connections (PostgreSQL), the message
// relays' — counted from the first call on: a figure the host's noise does not move, printed beside
// the times. Each is a system call, which on a virtual machine can cost more than what it carries.
let writes = null;

/** The writes this process has made to its sockets since the first call. */
export function socketWrites() {
  if (writes === null) {
    writes = 0;
    for (const method of ['_write', '_writev']) {
      const original = net.Socket.prototype[method];
      if (typeof original !== 'function') continue;
      net.Socket.prototype[method] = function (...args) {
        writes++;
        return original.apply(this, args);
      };
    }
  }
  return writes;
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
