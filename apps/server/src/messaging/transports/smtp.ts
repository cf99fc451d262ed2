import nodemailer from 'nodemailer';
import type { Delivery, Transport } from './types.js';

/** E-mail over SMTP (nodemailer), from SMTP_URL. */
export function smtpTransport(url: string, from: string): Transport {
  const transporter = nodemailer.createTransport(url);
  return {
    name: 'smtp',
    async send(delivery: Delivery) {
      await transporter.sendMail({
        from,
        to: delivery.recipient,
        subject: delivery.message.subject,
        text: delivery.message.text,
        html: delivery.message.html,
        messageId: `<${delivery.id}@hygie>`,
      });
    },
    close() {
      transporter.close();
      return Promise.resolve();
    },
  };
}
