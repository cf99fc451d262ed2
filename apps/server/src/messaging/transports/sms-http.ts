import type { Delivery, Transport } from './types.js';

/**
 * SMS through an HTTP gateway: POST JSON `{ id, to, text, sender }` with a bearer token;
 * any 2xx is a delivery, anything else (or a timeout) is retried by the dispatcher.
 */
export function smsHttpTransport(
  url: string,
  token: string | undefined,
  sender: string,
): Transport {
  return {
    name: 'sms-http',
    async send(delivery: Delivery) {
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
        signal: AbortSignal.timeout(10_000),
      });
      if (!response.ok) throw new Error(`SMS gateway answered ${response.status}`);
    },
  };
}
