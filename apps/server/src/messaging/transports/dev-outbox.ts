import type { Delivery, Transport } from './types.js';

/**
 * Development transport: prints the message on the console; the message stays readable at
 * GET /api/dev/outbox (which reads the outbox table). Refused in production (config.ts).
 */
export function devOutboxTransport(print: (line: string) => void): Transport {
  return {
    name: 'dev-outbox',
    keepsSecrets: true,
    send(delivery: Delivery) {
      const body = delivery.channel === 'sms' ? delivery.message.sms : delivery.message.text;
      const subject = delivery.channel === 'email' ? ` «${delivery.message.subject}»` : '';
      print(`[dev-outbox] ${delivery.channel} → ${delivery.recipient}${subject}\n${body}\n`);
      return Promise.resolve();
    },
  };
}
