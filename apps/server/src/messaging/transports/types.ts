import type { RenderedMessage } from '../templates.js';

export interface Delivery {
  /** The outbox id: carried as Message-ID / idempotency key so a retried send can be recognised. */
  id: string;
  channel: 'email' | 'sms';
  recipient: string;
  message: RenderedMessage;
}

export interface Transport {
  readonly name: string;
  send(delivery: Delivery): Promise<void>;
  close?(): Promise<void>;
}
