import type { FastifyBaseLogger } from 'fastify';
import { asBrand, asLanguage, DEFAULT_BRAND, DEFAULT_LANGUAGE } from '@hygie/domain';
import type { Db, Dialect } from '../db/connection.js';
import type { OutboxRow } from '../db/schema.js';
import type { Clock } from '../lib/clock.js';
import { newId } from '../lib/ids.js';
import { parseParams } from './outbox.js';
import type { Settlement } from './repository.js';
import { claimDueMessages, settleMessage } from './repository.js';
import type { LetterSettings } from './templates.js';
import { isTemplateName, renderMessage, withoutSecrets } from './templates.js';
import type { Transport } from './transports/types.js';
import { abortReason } from './transports/types.js';

export const MAX_ATTEMPTS = 10;
/** A claim outlives the longest send by this much, so no other worker takes a row mid-send. */
const LEASE_MARGIN_MS = 30_000;
/** Settling a delivered message is retried this many times (0.2 s, 0.4 s … 3.2 s) before giving up. */
const SETTLE_TRIES = 5;

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
  /** What every message says of itself (time zone, portal, help). */
  letter: LetterSettings;
  /** Counts a failed delivery attempt (metrics). */
  onFailure?: (channel: OutboxRow['channel']) => void;
  /** Delivers back-channel logout notices to platforms (none: they wait in the outbox). */
  logout?: NoticeSender;
  /** How often an idle node looks for due messages (a queued message wakes it at once). */
  pollMs: number;
  /** The longest one send may take: it is then aborted and retried later. */
  sendTimeoutMs: number;
  /** Messages in flight at once on each channel. */
  concurrency: number;
}

/** Renders a stored outbox row (also used by the dev outbox listing). */
export function renderRow(row: OutboxRow, letter: LetterSettings) {
  if (!isTemplateName(row.template)) throw new Error(`unknown template ${row.template}`);
  return renderMessage(
    row.template,
    asLanguage(row.language) ?? DEFAULT_LANGUAGE,
    asBrand(row.brand) ?? DEFAULT_BRAND,
    parseParams(row.params),
    letter,
  );
}

/** Delivers one claimed row of the `logout` channel (a back-channel logout notice). */
export interface NoticeSender {
  readonly name: string;
  send(row: OutboxRow, signal: AbortSignal): Promise<void>;
  /** The outbox stopped trying to deliver this notice (the audit trail says so). */
  gaveUp?(row: OutboxRow, status: 'failed' | 'expired'): Promise<void>;
}

/** One channel's delivery: how a row is sent, the sends in flight, and whether it is failing. */
interface Lane {
  channel: OutboxRow['channel'];
  name: string;
  /** The row keeps its secrets once settled (the dev outbox only). */
  keepsSecrets: boolean;
  send(row: OutboxRow, signal: AbortSignal): Promise<void>;
  /** A row the lane stopped trying to deliver (after its settlement). */
  gaveUp?(row: OutboxRow, status: 'failed' | 'expired'): Promise<void>;
  inFlight: Set<Promise<void>>;
  failing: boolean;
}

/** A lane for messages to people: the row rendered in its language and brand, then sent. */
function messageLane(channel: 'email' | 'sms', transport: Transport, letter: LetterSettings): Lane {
  return {
    channel,
    name: transport.name,
    keepsSecrets: transport.keepsSecrets === true,
    send: (row, signal) =>
      transport.send(
        { id: row.id, channel, recipient: row.recipient, message: renderRow(row, letter) },
        signal,
      ),
    inFlight: new Set(),
    failing: false,
  };
}

/** A claimed row and the claim's token, which every update of the row names. */
interface Leased {
  row: OutboxRow;
  owner: string;
}

/**
 * Delivers the outbox: one loop per process, e-mail, SMS and platforms' logout notices each with
 * their own sends in flight (a hung relay never holds SMS back). Rows are claimed with a lease carrying a token (and on
 * PostgreSQL with `FOR UPDATE SKIP LOCKED`), so several nodes share the outbox and a worker that
 * lost its lease can neither re-queue nor settle a row. Every send has a deadline shorter than the
 * lease; stopping aborts the sends in flight and hands their rows back.
 */
export class OutboxDispatcher {
  private readonly lanes: Lane[];
  private loop: Promise<void> | undefined;
  private shutdown = new AbortController();
  private wake: (() => void) | undefined;
  private woken = false;
  private databaseFailing = false;

  constructor(private readonly deps: DispatcherDeps) {
    this.lanes = [
      messageLane('email', deps.transports.email, deps.letter),
      messageLane('sms', deps.transports.sms, deps.letter),
    ];
    const logout = deps.logout;
    if (logout) {
      this.lanes.push({
        channel: 'logout',
        name: logout.name,
        keepsSecrets: false,
        send: (row, signal) => logout.send(row, signal),
        gaveUp: (row, status) => logout.gaveUp?.(row, status) ?? Promise.resolve(),
        inFlight: new Set(),
        failing: false,
      });
    }
  }

  /** Starts the loop (once: starting a running dispatcher changes nothing). */
  start(): void {
    if (this.loop) return;
    this.shutdown = new AbortController();
    this.loop = this.run();
  }

  /** Wakes the loop now (after a message is queued); never starts another loop. */
  nudge(): void {
    this.woken = true;
    this.wake?.();
  }

  /** Stops the loop, aborts the sends in flight and hands their rows back for another worker. */
  async stop(): Promise<void> {
    this.shutdown.abort(new Error('the node is shutting down'));
    this.wake?.();
    await this.loop;
    this.loop = undefined;
    await Promise.all(this.lanes.flatMap((lane) => [...lane.inFlight]));
  }

  /** Claims the due messages of each channel and sends them; returns how many (tests, CLI). */
  async runOnce(limit = 20): Promise<number> {
    let claimed = 0;
    for (const lane of this.lanes) {
      const leased = await this.claim(lane, limit);
      claimed += leased.length;
      await Promise.all(leased.map((l) => this.deliver(lane, l)));
    }
    return claimed;
  }

  private async run(): Promise<void> {
    const stopping = this.shutdown.signal;
    while (!stopping.aborted) {
      this.woken = false;
      await this.fill();
      if (!this.woken && !stopping.aborted) await this.sleep(this.deps.pollMs);
    }
  }

  /** Tops each channel up to its concurrency with due messages. */
  private async fill(): Promise<void> {
    for (const lane of this.lanes) {
      const free = this.deps.concurrency - lane.inFlight.size;
      if (free <= 0 || this.shutdown.signal.aborted) continue;
      let leased: Leased[];
      try {
        leased = await this.claim(lane, free);
        this.databaseState(undefined);
      } catch (err) {
        this.databaseState(err);
        return;
      }
      for (const l of leased) {
        const sending: Promise<void> = this.deliver(lane, l).finally(() => {
          lane.inFlight.delete(sending);
          this.nudge();
        });
        lane.inFlight.add(sending);
      }
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      timer.unref();
      this.wake = done;
    });
  }

  private async claim(lane: Lane, limit: number): Promise<Leased[]> {
    const { db, dialect, clock, sendTimeoutMs } = this.deps;
    const now = clock.now();
    const owner = newId();
    const rows = await claimDueMessages(db, dialect, {
      channel: lane.channel,
      now,
      limit,
      owner,
      lockedUntil: now + sendTimeoutMs + LEASE_MARGIN_MS,
    });
    return rows.map((row) => ({ row, owner }));
  }

  /** Sends one claimed message and settles it; never throws (one row never stops the others). */
  private async deliver(lane: Lane, { row, owner }: Leased): Promise<void> {
    const { clock } = this.deps;
    if (row.expires_at !== null && clock.now() >= row.expires_at) {
      await this.settle(row, owner, {
        status: 'expired',
        last_error: row.last_error ?? 'expired before it could be sent',
        params: this.settledParams(row, lane),
      });
      return;
    }
    const signal = AbortSignal.any([
      this.shutdown.signal,
      AbortSignal.timeout(this.deps.sendTimeoutMs),
    ]);
    try {
      await untilAborted(lane.send(row, signal), signal);
    } catch (err) {
      if (this.shutdown.signal.aborted) {
        // Handed back as it was, attempt not counted: another worker (or this one restarted) sends it.
        await this.settle(row, owner, {});
      } else {
        const reason = signal.aborted ? `${lane.name}: ${abortReason(signal)}` : reasonOf(err);
        await this.failed(lane, row, owner, reason);
      }
      return;
    }
    if (lane.failing) {
      lane.failing = false;
      this.deps.log.info({ transport: lane.name }, 'outbox: delivering again');
    }
    await this.settle(row, owner, {
      status: 'sent',
      sent_at: clock.now(),
      attempts: row.attempts + 1,
      params: this.settledParams(row, lane),
    });
  }

  /** A failed send: retried with backoff, unless it would then be too late or too often. */
  private async failed(lane: Lane, row: OutboxRow, owner: string, reason: string): Promise<void> {
    const attempts = row.attempts + 1;
    this.deps.onFailure?.(lane.channel);
    const nextAttemptAt = this.deps.clock.now() + backoffMs(attempts);
    const status =
      row.expires_at !== null && nextAttemptAt >= row.expires_at
        ? 'expired'
        : attempts >= MAX_ATTEMPTS
          ? 'failed'
          : 'pending';
    // One warning when a transport starts failing, not one per message (an outage would flood the log).
    const log = this.deps.log;
    const fields = { id: row.id, attempts, status, transport: lane.name, reason };
    if (lane.failing) log.debug(fields, 'outbox: delivery failed');
    else log.warn(fields, 'outbox: delivery failed; the transport is failing');
    lane.failing = true;
    await this.settle(row, owner, {
      status,
      attempts,
      next_attempt_at: nextAttemptAt,
      last_error: reason.slice(0, 500),
      ...(status === 'pending' ? {} : { params: this.settledParams(row, lane) }),
    });
    if (status !== 'pending') {
      try {
        await lane.gaveUp?.(row, status);
      } catch (err) {
        log.error({ err, id: row.id }, 'outbox: giving up not recorded');
      }
    }
  }

  /** Writes the outcome under the claim's token, retrying a database failure a few times. */
  private async settle(row: OutboxRow, owner: string, settlement: Settlement): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        const settled = await settleMessage(this.deps.db, row.id, owner, settlement);
        if (!settled) {
          this.deps.log.warn({ id: row.id }, 'outbox: lease taken over; outcome dropped');
        }
        return;
      } catch (err) {
        if (attempt >= SETTLE_TRIES) {
          // The lease runs out and the row is claimed again: a sent message may then go twice
          // (its Message-ID / idempotency key lets the peer recognise it).
          this.deps.log.error(
            { err, id: row.id, settlement: settlement.status },
            'outbox: could not settle',
          );
          return;
        }
        await delay(100 * 2 ** attempt);
      }
    }
  }

  private databaseState(err: unknown): void {
    if (err === undefined) {
      if (this.databaseFailing) this.deps.log.info('outbox: database back');
      this.databaseFailing = false;
      return;
    }
    if (!this.databaseFailing) this.deps.log.warn({ err }, 'outbox: cannot claim messages');
    this.databaseFailing = true;
  }

  /** What a settled message keeps of its parameters: all of them only for the dev outbox. */
  private settledParams(row: OutboxRow, lane: Lane): string | undefined {
    if (lane.keepsSecrets) return undefined;
    return JSON.stringify(withoutSecrets(parseParams(row.params)));
  }
}

/** The transport's promise, or the abort's rejection if the transport does not honour the signal. */
function untilAborted(send: Promise<void>, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(new Error(abortReason(signal)));
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    send.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function reasonOf(err: unknown): string {
  return err instanceof Error ? err.message : 'unknown error';
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
