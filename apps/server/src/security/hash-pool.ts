import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { AppError } from '../lib/app-error.js';

/** What a worker computes: an argon2id hash, or a verification against an encoded hash. */
export type HashJob =
  | { op: 'hash'; password: string; options: Record<string, number> }
  | { op: 'verify'; password: string; encoded: string };

interface Pending {
  job: HashJob;
  resolve: (value: string | boolean) => void;
  reject: (error: Error) => void;
}

// The worker: @node-rs/argon2's synchronous functions on its own thread, which first lowers its
// own scheduling priority (Linux: a thread's id is a pid to setpriority). Evaluated from a string so
// that the sources (tests) and the build run the same worker without a separate file to ship.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const argon2 = require(workerData.argon2);
try {
  const tid = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop());
  if (Number.isInteger(tid) && tid > 0) require('node:os').setPriority(tid, workerData.nice);
} catch {}
parentPort.on('message', (job) => {
  try {
    const result = job.op === 'hash'
      ? argon2.hashSync(job.password, job.options)
      : argon2.verifySync(job.encoded, job.password);
    parentPort.postMessage({ ok: true, result });
  } catch (error) {
    parentPort.postMessage({ ok: false, message: String(error && error.message) });
  }
});
`;

/** How long a refused sign-in is told to wait when the queue is full. */
export const HASH_QUEUE_RETRY_AFTER_SECONDS = 1;

/**
 * The password hashing of this process: as many worker threads as the configured concurrency
 * (the cores, by default), each at a lower scheduling priority than the event loop, so a storm of
 * sign-ins uses every idle cycle but never the event loop's (docs/performance.md "Sign-in"). Jobs
 * wait in one first-come, first-served queue; past `maxQueue` waiting, a job is refused with 503
 * and `Retry-After` rather than waiting longer than a client would.
 */
export class HashPool {
  private readonly idle: Worker[] = [];
  private readonly busy = new Map<Worker, Pending>();
  private readonly queue: Pending[] = [];
  private started = 0;
  private closed = false;

  constructor(
    readonly size: number,
    readonly maxQueue: number,
    private readonly nice = 10,
  ) {}

  run(job: HashJob): Promise<string | boolean> {
    if (this.closed) return Promise.reject(new Error('the hashing pool is closed'));
    if (this.queue.length >= this.maxQueue) {
      return Promise.reject(
        new AppError('service_unavailable', undefined, {
          'retry-after': String(HASH_QUEUE_RETRY_AFTER_SECONDS),
        }),
      );
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ job, resolve, reject });
      this.dispatch();
    });
  }

  /** Jobs waiting for a worker (the metrics' gauge). */
  get waiting(): number {
    return this.queue.length;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.queue.splice(0)) pending.reject(new Error('hashing pool closed'));
    const workers = [...this.idle.splice(0), ...this.busy.keys()];
    await Promise.all(workers.map((w) => w.terminate()));
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const worker = this.idle.pop() ?? (this.started < this.size ? this.spawn() : undefined);
      if (!worker) return;
      const pending = this.queue.shift();
      if (!pending) {
        this.idle.push(worker);
        return;
      }
      this.busy.set(worker, pending);
      // A busy worker keeps the process up until its answer (a CLI awaiting a hash); idle, never.
      worker.ref();
      worker.postMessage(pending.job);
    }
  }

  private spawn(): Worker {
    this.started++;
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { argon2: argon2Path(), nice: this.nice },
    });
    worker.on('message', (reply: unknown) => {
      const pending = this.busy.get(worker);
      this.busy.delete(worker);
      worker.unref();
      this.idle.push(worker);
      if (pending) settle(pending, reply);
      this.dispatch();
    });
    worker.on('error', (error) => this.lose(worker, error));
    worker.on('exit', () => this.lose(worker, new Error('hashing worker exited')));
    // After the listeners (a 'message' listener refs the worker again): idle until dispatched.
    worker.unref();
    return worker;
  }

  /** A worker that failed or exited: its job fails, another takes its place for the next. */
  private lose(worker: Worker, error: Error): void {
    const pending = this.busy.get(worker);
    const wasKnown = pending !== undefined || this.idle.includes(worker);
    this.busy.delete(worker);
    const index = this.idle.indexOf(worker);
    if (index >= 0) this.idle.splice(index, 1);
    if (!wasKnown) return;
    this.started--;
    pending?.reject(error);
    if (!this.closed) this.dispatch();
  }
}

function settle(pending: Pending, reply: unknown): void {
  if (typeof reply !== 'object' || reply === null) {
    pending.reject(new Error('malformed hashing reply'));
  } else if ('ok' in reply && reply.ok === true && 'result' in reply) {
    const { result } = reply;
    if (typeof result === 'string' || typeof result === 'boolean') pending.resolve(result);
    else pending.reject(new Error('malformed hashing result'));
  } else {
    const message = 'message' in reply ? String(reply.message) : 'hashing failed';
    pending.reject(new Error(message));
  }
}

let resolvedArgon2: string | undefined;
function argon2Path(): string {
  resolvedArgon2 ??= createRequire(import.meta.url).resolve('@node-rs/argon2');
  return resolvedArgon2;
}

const pools = new Map<string, HashPool>();

/**
 * The process's pool for a concurrency and queue limit: one per process, as the cores are (apps
 * built in one process, the test suites', share it; its idle workers never keep the process up).
 */
export function hashPool(concurrency: number, queueLimit: number): HashPool {
  const key = `${concurrency}/${queueLimit}`;
  let pool = pools.get(key);
  if (!pool) {
    pool = new HashPool(concurrency, queueLimit);
    pools.set(key, pool);
  }
  return pool;
}
