import type { Delivery, Transport } from './types.js';
import { abortReason, DeliveryError } from './types.js';

export interface SmsGatewayOptions {
  url: string;
  token: string | undefined;
  sender: string;
  /** The whole call: connecting, the gateway's answer and its body. */
  timeoutMs: number;
}

const BODY_EXCERPT = 200;

/**
 * SMS through an HTTP gateway: POST JSON `{ id, to, text, sender }` with a bearer token;
 * any 2xx is a delivery, anything else (or no answer in time) is retried by the dispatcher.
 */
export function smsHttpTransport({ url, token, sender, timeoutMs }: SmsGatewayOptions): Transport {
  return {
    name: 'sms-http',
    async send(delivery: Delivery, signal: AbortSignal) {
      const call = AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]);
      try {
        const response = await fetch(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'idempotency-key': delivery.id,
            ...(token ? { authorization: `Bearer ${token}` } : {}),
          },
          body: JSON.stringify({
            id: delivery.id,
            to: delivery.recipient,
            text: delivery.message.sms,
            sender,
          }),
          signal: call,
        });
        if (!response.ok) {
          const body = (await response.text()).replace(/\s+/g, ' ').trim().slice(0, BODY_EXCERPT);
          throw new DeliveryError(
            `SMS gateway answered ${response.status}${body ? `: ${body}` : ''}`,
          );
        }
        // The body is not needed, but reading it frees the connection.
        await response.arrayBuffer();
      } catch (err) {
        if (err instanceof DeliveryError) throw err;
        if (call.aborted) throw new DeliveryError(`SMS gateway: ${abortReason(call)}`);
        throw new DeliveryError(`SMS gateway unreachable: ${networkReason(err)}`);
      }
    },
  };
}

/** fetch's "fetch failed" hides the reason in its cause (ECONNREFUSED, ENOTFOUND, a TLS error…). */
function networkReason(err: unknown): string {
  const cause: unknown = err instanceof Error ? err.cause : undefined;
  if (cause instanceof Error) {
    const code = 'code' in cause && typeof cause.code === 'string' ? cause.code : undefined;
    return code ? `${code} ${cause.message}` : cause.message;
  }
  return err instanceof Error ? err.message : 'unknown error';
}
