import cluster from 'node:cluster';
import type { Worker } from 'node:cluster';
import { AggregatorRegistry } from 'prom-client';
import type { Registry } from 'prom-client';

/**
 * Metrics across the processes of one server (WORKERS, cluster.ts). A scrape reaches one worker;
 * it asks the primary, which collects every serving worker's registry, sums them with
 * prom-client's aggregation (each metric's `aggregator`: a gauge every process reads from the
 * database, such as the outbox's, is taken once) and answers with the whole. The messages below
 * are the only ones of this protocol, on the cluster's own channel.
 */
const SCRAPE = 'hygie:metrics:scrape';
const SCRAPED = 'hygie:metrics:scraped';
const COLLECT = 'hygie:metrics:collect';
const COLLECTED = 'hygie:metrics:collected';

/** How long the primary waits for the workers' registries, and a worker for the primary. */
const COLLECT_TIMEOUT_MS = 5_000;
const SCRAPE_TIMEOUT_MS = COLLECT_TIMEOUT_MS + 2_000;

type Message = {
  type: string;
  id: number;
  text?: string;
  error?: string;
  metrics?: object[];
};

function isMessage(value: unknown, type: string): value is Message {
  return (
    typeof value === 'object' &&
    value !== null &&
    'type' in value &&
    value.type === type &&
    'id' in value &&
    typeof value.id === 'number'
  );
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Sends on the cluster's channel; a peer gone meanwhile is left to its own exit's handling. */
function send(to: { send?: (message: Message) => unknown }, message: Message): void {
  try {
    to.send?.(message);
  } catch {
    // the channel closed: the peer has exited or is exiting
  }
}

/**
 * The worker's side: answers the primary's collections with `registry`, and returns the scrape of
 * the whole server (every worker's metrics, and the primary's), which rejects when the primary
 * does not answer in time.
 */
export function joinClusterMetrics(registry: Registry): () => Promise<string> {
  const waiting = new Map<number, (answer: Message) => void>();
  let next = 0;
  process.on('message', (message: unknown) => {
    if (isMessage(message, COLLECT)) {
      registry.getMetricsAsJSON().then(
        (metrics) => send(process, { type: COLLECTED, id: message.id, metrics }),
        (err: unknown) => send(process, { type: COLLECTED, id: message.id, error: messageOf(err) }),
      );
    } else if (isMessage(message, SCRAPED)) {
      waiting.get(message.id)?.(message);
    }
  });
  return () =>
    new Promise<string>((resolve, reject) => {
      const id = next++;
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new Error('the primary process did not answer with the metrics'));
      }, SCRAPE_TIMEOUT_MS);
      waiting.set(id, (answer) => {
        clearTimeout(timer);
        waiting.delete(id);
        if (answer.text !== undefined) resolve(answer.text);
        else reject(new Error(answer.error ?? 'no metrics'));
      });
      send(process, { type: SCRAPE, id });
    });
}

/**
 * The primary's side: answers a worker's scrape with the sum of the `serving` workers' registries
 * (a worker still starting is not asked), followed by the primary's own `registry`.
 */
export function serveClusterMetrics(registry: Registry, serving: () => Worker[]): void {
  /** Each collection in progress: the workers it still waits for, and what to do with an answer. */
  const collections = new Map<
    number,
    { waiting: Set<Worker>; answer: (worker: Worker, answer?: Message) => void }
  >();
  let next = 0;
  const collect = (): Promise<object[]> =>
    new Promise((resolve, reject) => {
      const id = next++;
      const workers = serving();
      const waiting = new Set(workers);
      const results: object[] = [];
      const timer = setTimeout(() => {
        collections.delete(id);
        reject(new Error(`${waiting.size} worker(s) did not send their metrics in time`));
      }, COLLECT_TIMEOUT_MS);
      const finish = (err?: Error) => {
        clearTimeout(timer);
        collections.delete(id);
        if (err) reject(err);
        else resolve(results);
      };
      // An answer, or none from a worker that exited meanwhile: its counts are gone with it, and
      // the scrape answers with the others' rather than waiting for the timeout.
      const answer = (worker: Worker, message?: Message) => {
        if (!waiting.delete(worker)) return;
        if (message && message.metrics === undefined) {
          finish(new Error(message.error ?? 'a worker sent no metrics'));
          return;
        }
        if (message?.metrics) results.push(message.metrics);
        if (waiting.size === 0) finish();
      };
      collections.set(id, { waiting, answer });
      if (waiting.size === 0) finish();
      for (const worker of workers) send(worker, { type: COLLECT, id });
    });
  cluster.on('exit', (worker: Worker) => {
    for (const collection of [...collections.values()]) collection.answer(worker);
  });
  cluster.on('message', (worker: Worker, message: unknown) => {
    if (isMessage(message, COLLECTED)) {
      collections.get(message.id)?.answer(worker, message);
    } else if (isMessage(message, SCRAPE)) {
      const { id } = message;
      collect()
        .then(
          async (all) =>
            (await AggregatorRegistry.aggregate(all).metrics()) + (await registry.metrics()),
        )
        .then(
          (text) => send(worker, { type: SCRAPED, id, text }),
          (err: unknown) => send(worker, { type: SCRAPED, id, error: messageOf(err) }),
        );
    }
  });
}
