import type { NewOutbox } from '../db/schema.js';
import type { TestApp } from './helpers.js';

/** The channels of a seeded queue, in turn. */
export const SEEDED_CHANNELS = ['email', 'sms', 'logout'] as const;

/**
 * Message `i` of a seeded queue of `count` messages, as the queue keeps them: the channels in
 * turn, 0.5 % failed, 0.1 % still waiting, the rest sent; two created a millisecond (ties in the
 * time order), the newest last.
 */
export function seededMessage(i: number, now: number, count: number): NewOutbox {
  const status = i % 200 === 5 ? 'failed' : i % 1000 === 7 ? 'pending' : 'sent';
  const channel = SEEDED_CHANNELS[i % SEEDED_CHANNELS.length] ?? 'email';
  const createdAt = now - count + Math.floor(i / 2);
  return {
    id: `seeded-${String(i).padStart(7, '0')}`,
    channel,
    recipient: channel === 'logout' ? 'platform' : `person${i}@seeded.test`,
    template: 'mfa_code',
    language: 'fr',
    brand: 'hygie',
    params: '{}',
    status,
    attempts: 1,
    next_attempt_at: now - i,
    locked_until: null,
    lease_owner: null,
    expires_at: null,
    last_error: null,
    created_at: createdAt,
    sent_at: status === 'sent' ? createdAt + 1 : null,
  };
}

/** Fills the app's queue with `count` seeded messages, 1,000 a statement. */
export async function seedOutbox(t: TestApp, count: number): Promise<void> {
  const now = t.clock.now();
  for (let from = 0; from < count; from += 1000) {
    const rows = Array.from({ length: Math.min(1000, count - from) }, (_, k) =>
      seededMessage(from + k, now, count),
    );
    await t.ctx.db.insertInto('outbox').values(rows).execute();
  }
}
