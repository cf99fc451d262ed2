import { DEFAULT_BRAND, DEFAULT_LANGUAGE, type Brand, type Language } from '@hygie/domain';
import { z } from 'zod';
import type { Db } from '../db/connection.js';
import type { OutboxRow } from '../db/schema.js';
import type { Clock } from '../lib/clock.js';
import { newId } from '../lib/ids.js';
import type { OutboxChannelStats } from '../lib/metrics.js';
import {
  failedOutboxCounts,
  insertOutboxRow,
  pendingOutboxCounts,
  requeueFailedMessage,
} from './repository.js';
import type { TemplateName } from './templates.js';

export interface OutgoingMessage {
  channel: 'email' | 'sms';
  recipient: string;
  template: TemplateName;
  language: Language;
  brand: Brand;
  params: Record<string, string>;
  /** When the code or link it carries expires: not sent after that (status `expired`). */
  expiresAt?: number;
}

const storedParams = z.record(z.string(), z.string());

/** The parameters of a stored outbox row (`params`, written by enqueueMessage). */
export function parseParams(stored: string): Record<string, string> {
  return storedParams.parse(JSON.parse(stored));
}

/**
 * Queues a message. Call it with the transaction of the change that causes the message, so the
 * change and the message are written together or not at all (architecture §6).
 */
export async function enqueueMessage(
  db: Db,
  clock: Clock,
  message: OutgoingMessage,
): Promise<string> {
  return enqueueRow(db, clock, message);
}

/** A back-channel logout notice for a platform: its user's provider session `sid` ended. */
export interface PlatformLogout {
  clientId: string;
  sub: string;
  sid: string;
}

/** The outbox template of back-channel logout notices (sent to a platform, never rendered). */
export const PLATFORM_LOGOUT = 'backchannel_logout';

/**
 * Queues a back-channel logout notice, in the transaction that ends the session: the platform is
 * told once the ending is committed, and told again if it did not answer.
 */
export async function enqueuePlatformLogout(
  db: Db,
  clock: Clock,
  notice: PlatformLogout,
): Promise<string> {
  return enqueueRow(db, clock, {
    channel: 'logout',
    recipient: notice.clientId,
    template: PLATFORM_LOGOUT,
    language: DEFAULT_LANGUAGE,
    brand: DEFAULT_BRAND,
    params: { sub: notice.sub, sid: notice.sid },
  });
}

async function enqueueRow(
  db: Db,
  clock: Clock,
  message: Omit<OutgoingMessage, 'channel' | 'template'> & {
    channel: OutboxRow['channel'];
    template: string;
  },
): Promise<string> {
  const id = newId();
  const now = clock.now();
  await insertOutboxRow(db, {
    id,
    channel: message.channel,
    recipient: message.recipient,
    template: message.template,
    language: message.language,
    brand: message.brand,
    params: JSON.stringify(message.params),
    status: 'pending',
    attempts: 0,
    next_attempt_at: now,
    locked_until: null,
    lease_owner: null,
    expires_at: message.expiresAt ?? null,
    last_error: null,
    created_at: now,
    sent_at: null,
  });
  return id;
}

/** What the outbox holds, by channel, for the metrics scrape. */
export async function outboxStats(db: Db, clock: Clock): Promise<OutboxChannelStats[]> {
  const [pending, failed] = await Promise.all([pendingOutboxCounts(db), failedOutboxCounts(db)]);
  const now = clock.now();
  const stats = new Map<string, OutboxChannelStats>();
  for (const channel of ['email', 'sms', 'logout']) {
    stats.set(channel, { channel, pending: 0, oldestPendingSeconds: 0, failed: 0 });
  }
  for (const row of pending) {
    const entry = stats.get(row.channel);
    if (!entry) continue;
    entry.pending = Number(row.count);
    entry.oldestPendingSeconds = row.oldest === null ? 0 : (now - Number(row.oldest)) / 1000;
  }
  for (const row of failed) {
    const entry = stats.get(row.channel);
    if (entry) entry.failed = Number(row.count);
  }
  return [...stats.values()];
}

/** Queues a failed message again (an operator's retry); false when it is no longer failed. */
export function requeueFailed(db: Db, clock: Clock, id: string): Promise<boolean> {
  return requeueFailedMessage(db, id, clock.now());
}

/** Retention (maintenance). */
export { deleteSettledMessagesBefore } from './repository.js';

/** The data export: the e-mails and SMS sent to the person, by their metadata (never the content). */
export { messagesToRecipients } from './repository.js';
