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
  /**
   * True only for the dev outbox, where developers read the codes and links of delivered
   * messages. After any other transport delivers a message (or gives up on it), the outbox keeps
   * it without its secrets.
   */
  readonly keepsSecrets?: boolean;
  send(delivery: Delivery): Promise<void>;
  close?(): Promise<void>;
}
