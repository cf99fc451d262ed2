import nodemailer from 'nodemailer';
import type { Delivery, Transport } from './types.js';
import { abortReason, DeliveryError } from './types.js';

export interface SmtpOptions {
  url: string;
  from: string;
  /** Each of connecting, the relay's greeting and any silence afterwards (nodemailer's time-outs). */
  timeoutMs: number;
}

/** E-mail over SMTP (nodemailer), from SMTP_URL; a relay that stops answering is given up. */
export function smtpTransport({ url, from, timeoutMs }: SmtpOptions): Transport {
  const transporter = nodemailer.createTransport({
    url,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    dnsTimeout: timeoutMs,
  });
  return {
    name: 'smtp',
    async send(delivery: Delivery, signal: AbortSignal) {
      try {
        await transporter.sendMail({
          from,
          to: delivery.recipient,
          subject: delivery.message.subject,
          text: delivery.message.text,
          html: delivery.message.html,
          messageId: `<${delivery.id}@hygie>`,
          // nodemailer closes the connection on abort: a relay stalled after DATA never gets the end.
          signal,
        });
      } catch (err) {
        throw new DeliveryError(signal.aborted ? `SMTP: ${abortReason(signal)}` : smtpReason(err));
      }
    },
    close() {
      transporter.close();
      return Promise.resolve();
    },
  };
}

/** nodemailer's error as the operators need it: its code, and the relay's reply when there is one. */
function smtpReason(err: unknown): string {
  if (!(err instanceof Error)) return 'SMTP: unknown error';
  const code = 'code' in err && typeof err.code === 'string' ? err.code : undefined;
  const reply = 'response' in err && typeof err.response === 'string' ? err.response : undefined;
  return ['SMTP', code, reply ?? err.message].filter(Boolean).join(' ').slice(0, 500);
}
