import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { WalStats } from '../db/checkpointer.js';
import { joinClusterMetrics } from './cluster-metrics.js';
import { isAppError } from './app-error.js';

/** What the outbox holds for one channel, read at each scrape. */
export interface OutboxChannelStats {
  channel: string;
  pending: number;
  /** Age in seconds of the oldest pending message (0 when none). */
  oldestPendingSeconds: number;
  /** Messages given up on (status failed). */
  failed: number;
}

/** A PostgreSQL pool's connections (SQLite has none). */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

/**
 * The password hashing now (security/hash-pool.ts): jobs on a worker and waiting for one;
 * password steps let in whose hash has not started, and waiting for their turn.
 */
export interface HashingStats {
  running: number;
  waiting: number;
  admitted: number;
  waitingTurn: number;
}

export interface MetricsSources {
  outbox: () => Promise<OutboxChannelStats[]>;
  pool?: () => PoolStats;
  wal?: () => WalStats | undefined;
  hashing?: () => HashingStats;
}

/**
 * The server's Prometheus metrics, one registry per app (docs/operations.md lists them): requests,
 * sign-ins and second factors as they happen; the outbox and the pool read when scraped; the
 * process's own (event-loop lag, memory, CPU) from prom-client.
 */
export class Metrics {
  readonly registry = new Registry();
  readonly httpDuration = new Histogram({
    name: 'hygie_http_request_duration_seconds',
    help: 'HTTP requests by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  readonly signIns = new Counter({
    name: 'hygie_sign_ins_total',
    help: 'Password sign-in attempts by outcome (ok, or the error code answered)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly identityProviderSignIns = new Counter({
    name: 'hygie_identity_provider_sign_ins_total',
    help: 'Sign-ins through an upstream identity provider by provider and outcome (ok, or the idp_error)',
    labelNames: ['provider', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly secondFactors = new Counter({
    name: 'hygie_second_factors_total',
    help: 'Second factors by channel and outcome (sent, passed, or the error code answered)',
    labelNames: ['channel', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly outboxFailures = new Counter({
    name: 'hygie_outbox_delivery_failures_total',
    help: 'Failed delivery attempts by channel (each is retried or given up)',
    labelNames: ['channel'] as const,
    registers: [this.registry],
  });
  private sources: MetricsSources | undefined;
  private scrape: () => Promise<string> = () => this.registry.metrics();

  constructor() {
    const outbox = async () => (await this.sources?.outbox()) ?? [];
    const pool = () => this.sources?.pool?.();
    const wal = () => this.sources?.wal?.();
    const hashing = () => this.sources?.hashing?.();
    new Gauge({
      name: 'hygie_outbox_pending',
      // Every process of a server reads the same table: across them, the value once.
      aggregator: 'max',
      help: 'Messages waiting to be delivered, by channel',
      labelNames: ['channel'] as const,
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const s of await outbox()) this.set({ channel: s.channel }, s.pending);
      },
    });
    new Gauge({
      name: 'hygie_outbox_oldest_pending_age_seconds',
      // Every process of a server reads the same table: across them, the value once.
      aggregator: 'max',
      help: 'Age of the oldest message waiting, by channel',
      labelNames: ['channel'] as const,
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const s of await outbox()) this.set({ channel: s.channel }, s.oldestPendingSeconds);
      },
    });
    new Gauge({
      name: 'hygie_outbox_failed',
      // Every process of a server reads the same table: across them, the value once.
      aggregator: 'max',
      help: 'Messages given up on after their last attempt, by channel',
      labelNames: ['channel'] as const,
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const s of await outbox()) this.set({ channel: s.channel }, s.failed);
      },
    });
    new Gauge({
      name: 'hygie_db_pool_connections',
      help: 'PostgreSQL pool connections: total, idle, and requests waiting for one',
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        const stats = pool();
        if (!stats) return;
        this.set({ state: 'total' }, stats.total);
        this.set({ state: 'idle' }, stats.idle);
        this.set({ state: 'waiting' }, stats.waiting);
      },
    });
    new Gauge({
      name: 'hygie_sqlite_wal_pages',
      help: 'SQLite log pages at the last checkpoint: in the log, and behind (a read still needs them)',
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        const stats = wal();
        if (!stats) return;
        this.set({ state: 'log' }, stats.logPages);
        this.set({ state: 'behind' }, stats.behindPages);
      },
    });
    new Gauge({
      name: 'hygie_password_hashing',
      help: 'Password hashing: jobs running and waiting for a worker; sign-ins under way before their hash (admitted) and waiting for their turn (waiting_turn)',
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        const stats = hashing();
        if (!stats) return;
        this.set({ state: 'running' }, stats.running);
        this.set({ state: 'waiting' }, stats.waiting);
        this.set({ state: 'admitted' }, stats.admitted);
        this.set({ state: 'waiting_turn' }, stats.waitingTurn);
      },
    });
  }

  /** Where the scraped gauges read from (the app's database), once it is open. */
  attach(sources: MetricsSources): void {
    this.sources = sources;
  }

  /** The text a scrape answers: this process's metrics, or the whole server's (joinCluster). */
  exposition(): Promise<string> {
    return this.scrape();
  }

  /**
   * In a worker of a server of several processes (WORKERS): a scrape answers every process's
   * metrics, gathered by the primary (lib/cluster-metrics.ts), not this one's share.
   */
  joinCluster(): void {
    this.scrape = joinClusterMetrics(this.registry);
  }

  /** Adds the process's own metrics (event-loop lag, memory, CPU, handles): served apps only. */
  collectProcessMetrics(): void {
    collectDefaultMetrics({ register: this.registry });
  }

  /** The outcome label of an attempt that failed: the error code answered, else `error`. */
  static outcomeOf(err: unknown): string {
    return isAppError(err) ? err.code : 'error';
  }
}
