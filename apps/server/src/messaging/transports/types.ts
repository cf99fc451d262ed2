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
  /**
   * Sends one message. `signal` aborts it (the dispatcher's deadline for one send, or the node
   * shutting down): the transport must then give up its connection, so the peer never completes a
   * send the outbox will retry.
   */
  send(delivery: Delivery, signal: AbortSignal): Promise<void>;
  close?(): Promise<void>;
}

/**
 * A send that failed, with the peer's own reason (SMTP reply code and text, gateway status and
 * body excerpt): the outbox keeps it as the message's last error, for the operators.
 */
export class DeliveryError extends Error {
  override readonly name = 'DeliveryError';
}

/** The reason an aborted send stopped: the node shutting down, or the send's deadline. */
export function abortReason(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  if (reason instanceof Error && reason.name === 'TimeoutError')
    return 'no answer before the deadline';
  return reason instanceof Error ? reason.message : 'aborted';
}
