import { createRequire } from 'node:module';
import { isIPv4, isIPv6 } from 'node:net';
import { Worker } from 'node:worker_threads';
import { AppError } from '../lib/app-error.js';
import type { HashingStats } from '../lib/metrics.js';
import { FairQueue } from './fair-queue.js';

/** What a worker computes: an argon2id hash, or a verification against an encoded hash. */
export type HashJob =
  | { op: 'hash'; password: string; options: Record<string, number> }
  | { op: 'verify'; password: string; encoded: string };

interface Pending {
  job: HashJob;
  resolve: (value: string | boolean) => void;
  reject: (error: Error) => void;
  /** The password step this job is the hash of: its place is given up when the job starts. */
  admission?: Admission;
}

/**
 * A password step let in (HashPool.admit): its reads, then its hash. Its place is given up when
 * its hash starts on a worker, or by `release()` (idempotent) when it ends without one.
 */
export interface Admission {
  release(): void;
}

interface WaitingAdmission {
  client: string;
  resolve: (admission: Admission) => void;
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

/**
 * The client an address stands for in the queue: an IPv4 address itself (an IPv4-mapped IPv6
 * one too), an IPv6 address's /64 network — one subscriber's, who may use any of its addresses,
 * so that changing address every request gets no more turns.
 */
export function clientOf(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1] && isIPv4(mapped[1])) return mapped[1];
  if (!isIPv6(address)) return address;
  const [head = '', tail] = address.split('%')[0]?.split('::') ?? [];
  const groups = (part: string | undefined) => (part ? part.split(':') : []);
  const left = groups(head);
  // An IPv4 suffix (`::1.2.3.4`) is the last 32 bits, past the /64 either way.
  const right = groups(tail);
  const full =
    tail === undefined
      ? left
      : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return `${full
    .slice(0, 4)
    .map((group) => (group.includes('.') ? '0' : group.toLowerCase().replace(/^0+(?=.)/, '')))
    .join(':')}::/64`;
}

/** How long a refused sign-in is told to wait when the queue is full. */
export const HASH_QUEUE_RETRY_AFTER_SECONDS = 1;

/** A refusal for want of room in the queue: 503 and `Retry-After`. */
function queueFull(): AppError {
  return new AppError('service_unavailable', undefined, {
    'retry-after': String(HASH_QUEUE_RETRY_AFTER_SECONDS),
  });
}

/**
 * The password hashing of this process: as many worker threads as the configured concurrency
 * (the cores, by default), each at a lower scheduling priority than the event loop, so a storm of
 * sign-ins uses every idle cycle but never the event loop's (docs/performance.md "Sign-in").
 *
 * Jobs wait in one queue per client (its address), served in turn: a client with jobs waiting
 * gets the next free worker only after every other client waiting has had one, each client's own
 * jobs first come, first served. A burst of a thousand sign-ins from one address then delays
 * another address's sign-in by at most one job of each client ahead of it, not by the burst.
 * Past `maxQueue` waiting in all, the job of the client with the most waiting goes (the newest
 * one), the newcomer's counted: the newcomer's own when its client would have as many as any,
 * else the largest client's newest, which is refused in its place. Refused: 503 and `Retry-After`, rather than
 * waiting longer than a client would. An address many people share (a hospital's) has a longer
 * queue of its own, never a smaller share of its turn than one attacker.
 *
 * A password step — the sign-in's reads before its hash, then the hash — is let in before it
 * begins (`admit`): at most `clientAdmitLimit` of one client's at a time whose hash has not
 * started (twice the workers by default), `admitLimit` of all clients' (four times), the others
 * waiting, the clients in turn, under the same limit and rule as the jobs. A storm of sign-ins
 * arriving at once from one address then does its reads at the pace the workers take its hashes,
 * not all at once on the event loop, where every other request would wait behind them; another
 * address's sign-in is let in at once beside it.
 */
export class HashPool {
  private readonly idle: Worker[] = [];
  private readonly busy = new Map<Worker, Pending>();
  private readonly jobs: FairQueue<Pending>;
  private readonly admissions: FairQueue<WaitingAdmission>;
  /** Password steps let in whose hash has not started: in all, and by client. */
  private admitted = 0;
  private readonly admittedBy = new Map<string, number>();
  private started = 0;
  private closed = false;

  constructor(
    readonly size: number,
    readonly maxQueue: number,
    private readonly nice = 10,
    readonly clientAdmitLimit = 2 * size,
    readonly admitLimit = 4 * size,
  ) {
    this.jobs = new FairQueue(maxQueue);
    this.admissions = new FairQueue(maxQueue);
  }

  /**
   * Runs `job` for the client at `address` ('' for the process's own work); `admission`, the
   * password step it is the hash of, gives up its place when the job starts.
   */
  run(job: HashJob, address = '', admission?: Admission): Promise<string | boolean> {
    if (this.closed) return Promise.reject(new Error('the hashing pool is closed'));
    return new Promise((resolve, reject) => {
      const queued = this.jobs.push(clientOf(address), { job, resolve, reject, admission });
      if (!queued.added) {
        admission?.release();
        reject(queueFull());
        return;
      }
      queued.dropped?.reject(queueFull());
      queued.dropped?.admission?.release();
      this.dispatch();
    });
  }

  /**
   * Lets a password step of the client at `address` in, in its turn (see the class): resolves
   * when it may begin, refused with 503 like a job when too many wait.
   */
  admit(address = ''): Promise<Admission> {
    if (this.closed) return Promise.reject(new Error('the hashing pool is closed'));
    const client = clientOf(address);
    // With room for it, no step that could be let in is waiting (letIn leaves none): in at once,
    // without a place in the queue, which may be full of steps of clients at their limit.
    if (this.hasRoomFor(client)) return Promise.resolve(this.letInNow(client));
    return new Promise((resolve, reject) => {
      const queued = this.admissions.push(client, { client, resolve, reject });
      if (!queued.added) {
        reject(queueFull());
        return;
      }
      queued.dropped?.reject(queueFull());
      this.letIn();
    });
  }

  private hasRoomFor(client: string): boolean {
    return (
      this.admitted < this.admitLimit && (this.admittedBy.get(client) ?? 0) < this.clientAdmitLimit
    );
  }

  /** Lets in the waiting steps there is room for, clients in turn. */
  private letIn(): void {
    while (this.admitted < this.admitLimit) {
      const waiting = this.admissions.next((client) => this.hasRoomFor(client));
      if (!waiting) return;
      waiting.resolve(this.letInNow(waiting.client));
    }
  }

  private letInNow(client: string): Admission {
    this.admitted++;
    this.admittedBy.set(client, (this.admittedBy.get(client) ?? 0) + 1);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.admitted--;
        const left = (this.admittedBy.get(client) ?? 1) - 1;
        if (left > 0) this.admittedBy.set(client, left);
        else this.admittedBy.delete(client);
        if (!this.closed) this.letIn();
      },
    };
  }

  /** Jobs waiting for a worker, and password steps waiting to be let in. */
  get waiting(): number {
    return this.jobs.size + this.admissions.size;
  }

  /** What the pool holds now (the metrics' gauge). */
  get stats(): HashingStats {
    return {
      running: this.busy.size,
      waiting: this.jobs.size,
      admitted: this.admitted,
      waitingTurn: this.admissions.size,
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.jobs.drain()) pending.reject(new Error('hashing pool closed'));
    for (const waiting of this.admissions.drain()) {
      waiting.reject(new Error('hashing pool closed'));
    }
    const workers = [...this.idle.splice(0), ...this.busy.keys()];
    await Promise.all(workers.map((w) => w.terminate()));
  }

  private dispatch(): void {
    while (this.jobs.size > 0) {
      const worker = this.idle.pop() ?? (this.started < this.size ? this.spawn() : undefined);
      if (!worker) return;
      const pending = this.jobs.next();
      if (!pending) {
        this.idle.push(worker);
        return;
      }
      this.busy.set(worker, pending);
      // A busy worker keeps the process up until its answer (a CLI awaiting a hash); idle, never.
      worker.ref();
      worker.postMessage(pending.job);
      pending.admission?.release();
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
