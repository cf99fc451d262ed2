import type { FastifyBaseLogger } from 'fastify';
import { asBrand, asLanguage, DEFAULT_BRAND, DEFAULT_LANGUAGE } from '@hygie/domain';
import type { Db, Dialect } from '../db/connection.js';
import type { OutboxRow } from '../db/schema.js';
import type { Clock } from '../lib/clock.js';
import { parseParams } from './outbox.js';
import { claimDueMessages, markMessageAttemptFailed, markMessageSent } from './repository.js';
import { isTemplateName, renderMessage, withoutSecrets } from './templates.js';
import type { Transport } from './transports/types.js';

const BATCH = 20;
// Longer than any send may take (transports time out at 10 s), so a claim is never stolen mid-send.
const LEASE_MS = 5 * 60_000;
export const MAX_ATTEMPTS = 10;

/** Exponential backoff: 5 s, 10 s, 20 s … capped at one hour. */
export function backoffMs(attempts: number): number {
  return Math.min(5_000 * 2 ** Math.max(0, attempts - 1), 60 * 60_000);
}

export interface DispatcherDeps {
  db: Db;
  dialect: Dialect;
  clock: Clock;
  log: FastifyBaseLogger;
  transports: { email: Transport; sms: Transport };
  pollMs: number;
}

/** Renders a stored outbox row (also used by the dev outbox listing). */
export function renderRow(row: OutboxRow) {
  if (!isTemplateName(row.template)) throw new Error(`unknown template ${row.template}`);
  return renderMessage(
    row.template,
    asLanguage(row.language) ?? DEFAULT_LANGUAGE,
    asBrand(row.brand) ?? DEFAULT_BRAND,
    parseParams(row.params),
  );
}

/**
 * Delivers the outbox. Every node may run one: rows are claimed with a lease, and on PostgreSQL
 * with `FOR UPDATE SKIP LOCKED`, so two nodes never take the same row.
 */
export class OutboxDispatcher {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> = Promise.resolve();
  private stopped = true;

  constructor(private readonly deps: DispatcherDeps) {}

  start(): void {
    this.stopped = false;
    this.schedule();
  }

  /** Wakes the loop now (after a message is queued) instead of at the next poll. */
  nudge(): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(delay = this.deps.pollMs): void {
    this.timer = setTimeout(() => {
      this.running = this.running
        .then(() => this.runOnce())
        .catch((err: unknown) => this.deps.log.warn({ err }, 'outbox: batch failed'))
        .finally(() => {
          if (!this.stopped) this.schedule();
        });
    }, delay);
    this.timer.unref();
  }

  /** Claims due messages and sends them; returns how many were attempted. */
  async runOnce(): Promise<number> {
    const rows = await this.claim();
    for (const row of rows) await this.deliver(row);
    return rows.length;
  }

  private async claim(): Promise<OutboxRow[]> {
    const { db, dialect, clock } = this.deps;
    const now = clock.now();
    return claimDueMessages(db, dialect, now, now + LEASE_MS, BATCH);
  }

  private async deliver(row: OutboxRow): Promise<void> {
    const { db, clock, log, transports } = this.deps;
    const transport = row.channel === 'sms' ? transports.sms : transports.email;
    try {
      const message = renderRow(row);
      await transport.send({ id: row.id, channel: row.channel, recipient: row.recipient, message });
      await markMessageSent(db, row.id, {
        sentAt: clock.now(),
        attempts: row.attempts + 1,
        params: settledParams(row, transport),
      });
    } catch (err) {
      const attempts = row.attempts + 1;
      const failed = attempts >= MAX_ATTEMPTS;
      log.warn({ err, id: row.id, attempts, transport: transport.name }, 'outbox: delivery failed');
      await markMessageAttemptFailed(db, row.id, {
        failed,
        attempts,
        nextAttemptAt: clock.now() + backoffMs(attempts),
        lastError: err instanceof Error ? err.message.slice(0, 500) : 'unknown error',
        ...(failed ? { params: settledParams(row, transport) } : {}),
      });
    }
  }
}

/** What a settled message keeps of its parameters: all of them only for the dev outbox. */
function settledParams(row: OutboxRow, transport: Transport): string | undefined {
  if (transport.keepsSecrets) return undefined;
  return JSON.stringify(withoutSecrets(parseParams(row.params)));
}
