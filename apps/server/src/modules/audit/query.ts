import type { AdminAuditEvent, AuditPage, AuditQuery } from '@hygie/domain';
import type { AppContext } from '../../context.js';
import { recordAudit, presentAuditEvent } from './service.js';
import { listAuditEvents, type AuditFilter } from './repository.js';

const DAY_MS = 24 * 60 * 60_000;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** A filter's bounds: a day covers that whole day (UTC); an instant is itself. */
function bounds(query: Pick<AuditQuery, 'from' | 'to'>): Pick<AuditFilter, 'from' | 'before'> {
  const start = (value: string) => Date.parse(DATE_ONLY.test(value) ? `${value}T00:00:00Z` : value);
  return {
    ...(query.from !== undefined && { from: start(query.from) }),
    ...(query.to !== undefined && {
      before: DATE_ONLY.test(query.to) ? start(query.to) + DAY_MS : Date.parse(query.to) + 1,
    }),
  };
}

function filterOf(query: Omit<AuditQuery, 'limit' | 'cursor'>): AuditFilter {
  return {
    ...(query.user !== undefined && { targetId: query.user }),
    ...(query.type !== undefined && { action: query.type }),
    ...bounds(query),
  };
}

function cursorOf(cursor: string | undefined): AuditFilter['after'] {
  const [at, id] = cursor?.split('.') ?? [];
  return at && id ? { at: Number(at), id } : undefined;
}

/** The audit trail for the admin area: newest first, a page at a time. */
export async function auditPage(ctx: AppContext, query: AuditQuery): Promise<AuditPage> {
  const after = cursorOf(query.cursor);
  const rows = await listAuditEvents(
    ctx.db,
    { ...filterOf(query), ...(after && { after }) },
    query.limit + 1,
  );
  const items = rows.slice(0, query.limit);
  const last = items.at(-1);
  return {
    items: items.map(presentAuditEvent),
    nextCursor: rows.length > query.limit && last ? `${Number(last.at)}.${last.id}` : null,
  };
}

/** At most this many events in one export (a bigger one is narrowed by dates). */
export const EXPORT_LIMIT = 100_000;
const EXPORT_CHUNK = 1_000;

export const CSV_COLUMNS = [
  'at',
  'action',
  'actor_id',
  'target_id',
  'ip',
  'user_agent',
  'request_id',
  'details',
] as const;

/**
 * One CSV field: quoted when it holds a separator, a quote or a line break; and a value a
 * spreadsheet would run as a formula (=, +, -, @, tab, carriage return first — a user agent is
 * whatever the client sent) is prefixed with a quote (OWASP "CSV injection").
 */
export function csvField(value: string | null): string {
  if (value === null) return '';
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

function csvLine(event: AdminAuditEvent): string {
  const values = [
    event.at,
    event.action,
    event.actorId,
    event.targetId,
    event.ip,
    event.userAgent,
    event.requestId,
    event.details ? JSON.stringify(event.details) : null,
  ];
  return `${values.map(csvField).join(',')}\r\n`;
}

/**
 * The filtered trail as CSV lines (header first), read a thousand events at a time so that a
 * large export never sits in memory whole. The export itself is audited first.
 */
export async function* auditCsv(
  ctx: AppContext,
  query: Omit<AuditQuery, 'limit' | 'cursor'>,
  actor: { userId: string; ip: string | null },
): AsyncGenerator<string> {
  await recordAudit(ctx.db, ctx.clock, {
    action: 'audit_exported',
    actorId: actor.userId,
    ip: actor.ip,
    details: { ...query },
  });
  yield `${CSV_COLUMNS.join(',')}\r\n`;
  const filter = filterOf(query);
  let after: AuditFilter['after'];
  let sent = 0;
  while (sent < EXPORT_LIMIT) {
    const rows = await listAuditEvents(
      ctx.db,
      { ...filter, ...(after && { after }) },
      Math.min(EXPORT_CHUNK, EXPORT_LIMIT - sent),
    );
    if (rows.length === 0) return;
    yield rows.map((row) => csvLine(presentAuditEvent(row))).join('');
    sent += rows.length;
    const last = rows.at(-1);
    if (!last || rows.length < EXPORT_CHUNK) return;
    after = { at: Number(last.at), id: last.id };
  }
}
