import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { SMTPServer } from 'smtp-server';
import { portOf } from '../test/helpers.js';

// Fault-injecting peers for the outbox, built on the ecosystem's own servers: a real SMTP server
// (smtp-server) and an HTTP SMS gateway (Fastify). Each counts what it accepted per outbox id, so a
// scenario asserts exact counts: nothing lost, nothing twice.

/** How a peer behaves now; tests switch it while the dispatcher runs. */
export type PeerMode =
  /** Accepts everything (after `latencyMs`). */
  | 'ok'
  /** Refuses at once: SMTP 421 on connect, HTTP 503. */
  | 'refuse'
  /** Accepts the connection, then never answers (no SMTP greeting, no HTTP answer). */
  | 'stall-connect'
  /** SMTP: reads the whole message after DATA, then never answers. */
  | 'stall-data';

export interface PeerOptions {
  /** Every `failEvery`-th accepted send is refused (4 → 25 %); 0 never. */
  failEvery?: number;
  latencyMs?: number;
}

abstract class Peer {
  mode: PeerMode = 'ok';
  failEvery: number;
  latencyMs: number;
  /** How many times each outbox id was accepted. */
  readonly accepted = new Map<string, number>();
  /** Sends refused by `failEvery` or `refuse`. */
  refused = 0;
  /** Sends left hanging by a stall mode. */
  stalled = 0;
  private seen = 0;
  /** Fired whenever the peer accepts a message. */
  private listeners = new Set<() => void>();

  constructor(options: PeerOptions) {
    this.failEvery = options.failEvery ?? 0;
    this.latencyMs = options.latencyMs ?? 0;
  }

  /** Whether the next send is one of the share that fails. */
  protected failsNow(): boolean {
    this.seen++;
    const fails = this.failEvery > 0 && this.seen % this.failEvery === 0;
    if (fails) this.refused++;
    return fails;
  }

  protected accept(id: string): void {
    this.accepted.set(id, (this.accepted.get(id) ?? 0) + 1);
    for (const listener of this.listeners) listener();
  }

  /** Ids accepted more than once. */
  duplicates(): string[] {
    return [...this.accepted].filter(([, n]) => n > 1).map(([id]) => id);
  }

  /** Resolves once `n` distinct messages were accepted (or rejects after `ms` of real time). */
  async waitFor(n: number, ms = 20_000): Promise<void> {
    if (this.accepted.size >= n) return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.listeners.delete(check);
        reject(new Error(`waited ${ms} ms for ${n} messages, got ${this.accepted.size}`));
      }, ms);
      const check = () => {
        if (this.accepted.size < n) return;
        clearTimeout(timer);
        this.listeners.delete(check);
        resolve();
      };
      this.listeners.add(check);
    });
  }

  protected pause(): Promise<void> {
    return this.latencyMs > 0
      ? new Promise((resolve) => setTimeout(resolve, this.latencyMs))
      : Promise.resolve();
  }

  abstract get url(): string;
  abstract close(): Promise<void>;
}

const MESSAGE_ID = /^Message-ID:\s*<([^@>]+)@hygie>/im;

/** An SMTP relay (smtp-server) whose faults the test chooses. */
export class FaultySmtp extends Peer {
  private readonly server: SMTPServer;
  private port = 0;

  constructor(options: PeerOptions = {}) {
    super(options);
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      // Closing must not wait for the stalled connections the scenarios leave behind.
      closeTimeout: 100,
      onConnect: (_session, callback) => {
        if (this.mode === 'refuse') {
          callback(Object.assign(new Error('relay unavailable'), { responseCode: 421 }));
        } else if (this.mode === 'stall-connect') {
          this.stalled++; // the greeting never comes
        } else {
          callback();
        }
      },
      onData: (stream, _session, callback) => {
        let raw = '';
        stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
        stream.on('end', () => {
          // A connection closed mid-DATA ends the stream without its terminating dot: not a message.
          if (stream.sizeExceeded || !raw) return;
          if (this.mode === 'stall-data') {
            this.stalled++;
            return;
          }
          void this.pause().then(() => {
            if (this.failsNow()) {
              callback(Object.assign(new Error('mailbox busy, try later'), { responseCode: 451 }));
              return;
            }
            const id = MESSAGE_ID.exec(raw)?.[1];
            if (id) this.accept(id);
            callback();
          });
        });
      },
    });
  }

  async listen(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
    this.port = portOf(this.server.server);
    return this;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** An HTTP SMS gateway (Fastify) whose faults the test chooses. */
export class FaultySmsGateway extends Peer {
  private readonly app: FastifyInstance = Fastify({ logger: false, forceCloseConnections: true });
  private port = 0;

  async listen(): Promise<this> {
    this.app.post('/sms', async (request, reply) => {
      if (this.mode === 'stall-connect' || this.mode === 'stall-data') {
        // Never answers: the socket stays open until the caller gives up.
        this.stalled++;
        return new Promise<never>(() => {});
      }
      if (this.mode === 'refuse') return reply.code(503).send({ error: 'maintenance window' });
      await this.pause();
      if (this.failsNow()) return reply.code(502).send({ error: 'operator timeout' });
      const key = request.headers['idempotency-key'];
      if (typeof key === 'string') this.accept(key);
      return reply.code(202).send({ accepted: true });
    });
    await this.app.listen({ host: '127.0.0.1', port: 0 });
    this.port = portOf(this.app.server);
    return this;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/sms`;
  }

  close(): Promise<void> {
    return this.app.close();
  }
}
