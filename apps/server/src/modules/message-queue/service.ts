import type { AdminMessage, AdminMessageList } from '@hygie/domain';
import { transaction } from '../../db/transaction.js';
import { maskEmail, maskPhone } from '@hygie/domain';
import type { z } from 'zod';
import type { messageQuerySchema } from '@hygie/domain';
import type { AppContext } from '../../context.js';
import type { OutboxRow } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import { recordAudit } from '../audit/service.js';
import { requeueFailed } from '../../messaging/outbox.js';
import { findMessage, listMessages } from './repository.js';

type MessageQuery = z.infer<typeof messageQuerySchema>;

function iso(at: number | null): string | null {
  return at === null ? null : new Date(at).toISOString();
}

/**
 * A failed message can go again only when it carries no code or link: those were removed when it
 * failed (and would have expired since). The person asks for a new one instead.
 */
function retryable(row: OutboxRow): boolean {
  return row.status === 'failed' && row.expires_at === null;
}

/** What an operator sees of a message: where it goes, masked for people; never its content. */
function present(row: OutboxRow): AdminMessage {
  const recipient =
    row.channel === 'email'
      ? maskEmail(row.recipient)
      : row.channel === 'sms'
        ? maskPhone(row.recipient)
        : row.recipient;
  return {
    id: row.id,
    channel: row.channel,
    recipient,
    template: row.template,
    status: row.status,
    attempts: row.attempts,
    lastError: row.last_error,
    createdAt: new Date(row.created_at).toISOString(),
    sentAt: iso(row.sent_at),
    nextAttemptAt: row.status === 'pending' ? iso(row.next_attempt_at) : null,
    expiresAt: iso(row.expires_at),
    retryable: retryable(row),
  };
}

/** The outbox for operators: newest first, a page at a time. */
export async function messagePage(ctx: AppContext, query: MessageQuery): Promise<AdminMessageList> {
  const [createdAt, id] = query.cursor?.split('.') ?? [];
  const rows = await listMessages(ctx.db, {
    status: query.status,
    channel: query.channel,
    after: createdAt && id ? { createdAt: Number(createdAt), id } : undefined,
    limit: query.limit + 1,
  });
  const items = rows.slice(0, query.limit);
  const last = items.at(-1);
  return {
    items: items.map(present),
    nextCursor: rows.length > query.limit && last ? `${last.created_at}.${last.id}` : null,
  };
}

/** An operator sends a failed message again (audited); refused for one that carried a secret. */
export async function retryMessage(
  ctx: AppContext,
  id: string,
  actor: { userId: string; ip: string | null },
): Promise<AdminMessage> {
  const row = await findMessage(ctx.db, id);
  if (!row) throw new AppError('not_found');
  if (!retryable(row)) throw new AppError('message_not_retryable');
  const requeued = await transaction(ctx.db, async (trx) => {
    if (!(await requeueFailed(trx, ctx.clock, id))) return false;
    await recordAudit(trx, ctx.clock, {
      action: 'message_retried',
      actorId: actor.userId,
      ip: actor.ip,
      details: { messageId: id, channel: row.channel, template: row.template },
    });
    return true;
  });
  if (!requeued) throw new AppError('message_not_retryable');
  const after = await findMessage(ctx.db, id);
  if (!after) throw new AppError('not_found');
  return present(after);
}
