import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * SQLite in WAL mode copies the log back into the database file (a checkpoint) once the log holds
 * `wal_autocheckpoint` pages (1,000 by default), in the connection that commits then: on the event
 * loop, syncing the log, copying the pages and syncing the file, a stall of 5–8 ms on a VM's disk
 * every few hundred sign-ins during which no request moves. Here one worker thread of the process
 * does it instead, for each database registered, on a connection of its own: a PASSIVE checkpoint
 * every interval, which never waits for the writer or the readers and never makes them wait.
 *
 * The writer keeps two things: the sync of the log's header when it starts the log again after a
 * checkpoint (SQLite's rule; 0.4–3.6 ms on the same VM's disk), and a checkpoint of its own as a
 * backstop at `BACKSTOP_PAGES` (the worker gone, or held back). A commit is also on disk within an
 * interval: at `synchronous = NORMAL` a commit not yet synced is what a power cut loses, and with
 * the default it could wait for 1,000 pages of writes.
 */

/** The writer's own checkpoint threshold while the worker checkpoints (pages of 4 KiB: 40 MiB). */
export const BACKSTOP_PAGES = 10_000;

/** How often the worker checkpoints each database. */
export const CHECKPOINT_INTERVAL_MS = 1_000;

// Evaluated from a string, like the hashing workers: the sources (tests) and the build run the
// same worker without a separate file to ship.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.sqlite);
const open = new Map();
parentPort.on('message', (message) => {
  if (message.op === 'add') {
    let db;
    try {
      db = new Database(message.file, { fileMustExist: true });
      // The checkpoint syncs as the writer's commits would (synchronous = NORMAL: at checkpoints).
      db.pragma('synchronous = NORMAL');
    } catch {
      // The writer keeps checkpointing as SQLite does by default.
      parentPort.postMessage({ op: 'added', id: message.id, ok: false });
      return;
    }
    let last = '';
    const run = () => {
      try {
        const [result] = db.pragma('wal_checkpoint(PASSIVE)');
        const behind = result.log - result.checkpointed;
        const key = result.log + '/' + behind;
        if (key !== last) parentPort.postMessage({ op: 'checkpointed', id: message.id, log: result.log, behind });
        last = key;
      } catch {
        // Failed this time (the disk, which then fails the writer's commits too): the next
        // interval tries again, the writer's backstop remains.
      }
    };
    open.set(message.id, { db, timer: setInterval(run, message.intervalMs) });
    parentPort.postMessage({ op: 'added', id: message.id, ok: true });
  } else if (message.op === 'remove') {
    const entry = open.get(message.id);
    open.delete(message.id);
    if (entry) {
      clearInterval(entry.timer);
      try { entry.db.close(); } catch {}
    }
    parentPort.postMessage({ op: 'removed', id: message.id });
  }
});
`;

interface Reply {
  op: 'added' | 'removed';
  id: number;
  ok?: boolean;
}

/** What a checkpoint found: the log's pages, those it could not copy (a reader holds them). */
interface CheckpointReport {
  op: 'checkpointed';
  id: number;
  log: number;
  behind: number;
}

/** What the worker is asked: to checkpoint a file from now on, or to stop. */
type Request =
  { op: 'add'; id: number; file: string; intervalMs: number } | { op: 'remove'; id: number };

function isReport(value: unknown): value is CheckpointReport {
  return (
    typeof value === 'object' &&
    value !== null &&
    'op' in value &&
    value.op === 'checkpointed' &&
    'id' in value &&
    typeof value.id === 'number' &&
    'log' in value &&
    typeof value.log === 'number' &&
    'behind' in value &&
    typeof value.behind === 'number'
  );
}

function isReply(value: unknown): value is Reply {
  return (
    typeof value === 'object' &&
    value !== null &&
    'op' in value &&
    (value.op === 'added' || value.op === 'removed') &&
    'id' in value &&
    typeof value.id === 'number'
  );
}

/** The process's checkpointing thread, shared by every database opened with it. */
class Checkpointer {
  private worker: Worker | null = null;
  private nextId = 1;
  /** Replies awaited (`added:1`, `removed:1`…): while any is, the worker keeps the process up. */
  private readonly awaited = new Map<string, (ok: boolean) => void>();
  /** What the last checkpoints found, by registration. */
  private readonly found = new Map<number, WalStats>();

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { sqlite: createRequire(import.meta.url).resolve('better-sqlite3') },
    });
    worker.on('message', (reply: unknown) => {
      if (isReport(reply)) {
        if (this.found.has(reply.id)) {
          this.found.set(reply.id, { logPages: reply.log, behindPages: reply.behind });
        }
        return;
      }
      if (!isReply(reply)) return;
      const key = `${reply.op}:${reply.id}`;
      const resolve = this.awaited.get(key);
      this.awaited.delete(key);
      if (this.awaited.size === 0) worker.unref();
      resolve?.(reply.ok !== false);
    });
    const lost = () => {
      // Its databases fall back on their writers' backstop; a later registration starts another.
      if (this.worker === worker) this.worker = null;
      const waiting = [...this.awaited.values()];
      this.awaited.clear();
      for (const resolve of waiting) resolve(false);
    };
    worker.on('error', lost);
    worker.on('exit', lost);
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private ask(worker: Worker, reply: Reply['op'], message: Request) {
    return new Promise<boolean>((resolve) => {
      this.awaited.set(`${reply}:${message.id}`, resolve);
      worker.ref();
      worker.postMessage(message);
    });
  }

  /** Starts checkpointing `file`; `ready` tells whether the worker took it. */
  add(file: string, intervalMs: number): BackgroundCheckpoints {
    const worker = this.ensureWorker();
    const id = this.nextId++;
    this.found.set(id, { logPages: 0, behindPages: 0 });
    const ready = this.ask(worker, 'added', { op: 'add', id, file, intervalMs });
    let stopped: Promise<void> | null = null;
    return {
      ready,
      stats: () => this.found.get(id),
      stop: () => {
        stopped ??= ready.then(async (taken) => {
          this.found.delete(id);
          // Not taken, or the worker lost meanwhile: no connection of the worker is left.
          if (!taken || this.worker !== worker) return;
          await this.ask(worker, 'removed', { op: 'remove', id });
        });
        return stopped;
      },
    };
  }
}

/** What the worker's last checkpoint of a database found (the metrics read it when scraped). */
export interface WalStats {
  /** Pages in the log. */
  logPages: number;
  /** Pages the checkpoint could not copy: a read still needs them. Growing: a read held open. */
  behindPages: number;
}

export interface BackgroundCheckpoints {
  /** Whether the worker opened the database (false: the writer's backstop checkpoints alone). */
  ready: Promise<boolean>;
  /** What the last checkpoints found; undefined once stopped. */
  stats(): WalStats | undefined;
  /** Stops checkpointing and closes the worker's connection (before the writer closes its own). */
  stop(): Promise<void>;
}

let checkpointer: Checkpointer | undefined;

/**
 * Checkpoints the SQLite database `file` (WAL mode) on the process's checkpointing thread every
 * `intervalMs`. The caller lowers its own connection's checkpointing to the backstop.
 */
export function checkpointInBackground(
  file: string,
  intervalMs = CHECKPOINT_INTERVAL_MS,
): BackgroundCheckpoints {
  checkpointer ??= new Checkpointer();
  return checkpointer.add(file, intervalMs);
}
