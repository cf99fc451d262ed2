import cluster from 'node:cluster';
import type { Worker } from 'node:cluster';
import { pino } from 'pino';
import { Counter, Gauge, Registry } from 'prom-client';
import type { Config } from './config.js';
import { serveClusterMetrics } from './lib/cluster-metrics.js';

/** A worker's exit status for a configuration it refuses (server.ts): restarting cannot fix it. */
export const CONFIG_EXIT_CODE = 2;
/** The wait before a worker that died is replaced, doubled while replacements die young. */
const FIRST_RESTART_MS = 1_000;
const LONGEST_RESTART_MS = 30_000;
/** A worker that served this long before dying is replaced after the first wait again. */
const STEADY_MS = 30_000;

/**
 * The primary of a server of several processes (WORKERS > 1, PostgreSQL): it serves nothing
 * itself. It forks the workers — the first alone, so that what a first start creates (the schema,
 * the secret, the admin, development data keys) is made once, then the others — and hands each
 * new connection to one of them in turn (Node's cluster module). A worker that dies is replaced
 * after 1 s, a wait that doubles (up to 30 s) while the replacements die young, before serving for
 * 30 s; one that refuses the configuration stops the server (exit 2), as does a first worker that
 * never serves (exit 1). SIGTERM or SIGINT is passed to every worker, which drains and exits as a
 * single process does; the primary exits once they all have, 0 when they all exited 0. Metrics:
 * lib/cluster-metrics.ts.
 */
export function runPrimary(config: Config): void {
  const log = pino({ level: config.logLevel });
  const registry = new Registry();
  const restarts = new Counter({
    name: 'hygie_worker_restarts_total',
    help: 'Worker processes replaced after they died',
    registers: [registry],
  });
  const serving = new Set<Worker>();
  new Gauge({
    name: 'hygie_workers_serving',
    help: 'Worker processes serving requests',
    registers: [registry],
    collect() {
      this.set(serving.size);
    },
  });
  serveClusterMetrics(registry, () => [...serving]);

  let stopping = false;
  let started = false;
  let exitCode = 0;
  const alive = new Set<Worker>();
  const pendingRestarts = new Set<NodeJS.Timeout>();

  /** Forks a worker; `youngWait` is the wait before its replacement should it die young. */
  const fork = (youngWait: number): void => {
    const worker = cluster.fork();
    let servingSince: number | undefined;
    alive.add(worker);
    worker.once('listening', () => {
      servingSince = Date.now();
      serving.add(worker);
      log.info({ worker: worker.process.pid }, 'worker serving');
      if (!started) {
        started = true;
        for (let i = 1; i < config.workers; i++) fork(FIRST_RESTART_MS);
      }
    });
    worker.once('exit', (code: number | null, signal: string | null) => {
      alive.delete(worker);
      serving.delete(worker);
      if (stopping) {
        if (code !== 0) exitCode = Math.max(exitCode, 1);
        if (alive.size === 0) {
          log.info({ exitCode }, 'every worker stopped');
          process.exit(exitCode);
        }
        return;
      }
      if (code === CONFIG_EXIT_CODE || !started) {
        // The configuration is refused, or nothing ever served: another worker would do the same.
        log.error({ worker: worker.process.pid, code, signal }, 'worker could not start');
        stop('startup', code === CONFIG_EXIT_CODE ? CONFIG_EXIT_CODE : 1);
        return;
      }
      // Young: it died before it served, or within STEADY_MS of serving (a slow start is no age).
      const steady = servingSince !== undefined && Date.now() - servingSince >= STEADY_MS;
      const wait = steady ? FIRST_RESTART_MS : youngWait;
      log.warn(
        { worker: worker.process.pid, code, signal, restartInMs: wait },
        'worker died: another takes its place',
      );
      restarts.inc();
      const timer = setTimeout(() => {
        pendingRestarts.delete(timer);
        if (!stopping) fork(Math.min(wait * 2, LONGEST_RESTART_MS));
      }, wait);
      pendingRestarts.add(timer);
    });
  };

  const stop = (reason: string, code: number): void => {
    if (stopping) return;
    stopping = true;
    exitCode = code;
    for (const timer of pendingRestarts) clearTimeout(timer);
    log.info({ reason, workers: alive.size }, 'stopping every worker');
    if (alive.size === 0) process.exit(exitCode);
    for (const worker of alive) worker.process.kill('SIGTERM');
    // A worker forces itself out 25 s after its grace (server.ts); past that, the primary does.
    const force = setTimeout(() => {
      for (const worker of alive) worker.process.kill('SIGKILL');
      process.exit(1);
    }, config.shutdownGraceMs + 30_000);
    force.unref();
  };

  process.on('SIGTERM', () => stop('SIGTERM', 0));
  process.on('SIGINT', () => stop('SIGINT', 0));
  log.info({ workers: config.workers }, 'starting the workers');
  fork(FIRST_RESTART_MS);
}
