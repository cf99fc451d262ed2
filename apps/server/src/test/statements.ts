import type { CompiledQuery } from 'kysely';
import { sql } from 'kysely';
import type { TestApp } from './helpers.js';

// What a request sends to the database, told by statement (tests of what is written, and in how
// many transactions), and a database refusing a write.

/**
 * `select users`, `insert sessions`, `begin`, `commit`… : a statement's verb and table; a statement
 * that writes in a `with` (PostgreSQL) is `with ` and the verb of that write (`with insert throttles`).
 */
export function verbOf(query: CompiledQuery): string {
  const text = query.sql.trim().toLowerCase();
  const written = /^with "\w+" as \((insert|update|delete) /.exec(text);
  if (written) return `with ${verbOf({ ...query, sql: text.slice(text.indexOf('(') + 1) })}`;
  if (/^begin\b/.test(text)) return 'begin';
  if (/^(commit|rollback)\b/.test(text)) return text.split(/\s/)[0] ?? text;
  const table = (pattern: RegExp) => pattern.exec(text)?.[1] ?? '?';
  if (text.startsWith('select')) return `select ${table(/ from "(\w+)"/)}`;
  if (text.startsWith('insert')) return `insert ${table(/^insert into "(\w+)"/)}`;
  if (text.startsWith('update')) return `update ${table(/^update "(\w+)"/)}`;
  if (text.startsWith('delete')) return `delete ${table(/^delete from "(\w+)"/)}`;
  return text;
}

/** The statements outside any transaction, and each transaction's statements, in order. */
export function shapeOf(queries: CompiledQuery[]) {
  const outside: string[] = [];
  const transactions: string[][] = [];
  let current: string[] | null = null;
  for (const verb of queries.map(verbOf)) {
    if (verb === 'begin') current = [];
    else if (verb === 'commit' || verb === 'rollback') {
      if (current) transactions.push(current);
      current = null;
    } else if (current) current.push(verb);
    else outside.push(verb);
  }
  return { outside, transactions };
}

/**
 * The round trips of each transaction a pipelined transaction sent (QueryLog.withTurns): the turns
 * of the event loop its statements, from `begin` to `commit` or `rollback`, were sent in.
 */
export function roundTripsOf(recorded: { queries: CompiledQuery[]; turns: number[] }): number[] {
  const trips: number[] = [];
  let current: Set<number> | null = null;
  recorded.queries.forEach((query, i) => {
    const verb = verbOf(query);
    if (verb === 'begin') current = new Set();
    current?.add(recorded.turns[i] ?? -1);
    if ((verb === 'commit' || verb === 'rollback') && current) {
      trips.push(current.size);
      current = null;
    }
  });
  return trips;
}

/** Makes every insert into `table` fail, as a database refusing the write would. */
export async function injectInsertFault(
  t: TestApp,
  table: 'sessions' | 'audit_events',
): Promise<void> {
  const name = sql.raw(`${table}_fault`);
  if (t.dialect === 'sqlite') {
    await sql`create trigger ${name} before insert on ${sql.table(table)}
      begin select raise(abort, 'injected fault'); end`.execute(t.ctx.db);
    return;
  }
  await sql`create function ${name}() returns trigger language plpgsql as
    $$ begin raise exception 'injected fault'; end $$`.execute(t.ctx.db);
  await sql`create trigger ${name} before insert on ${sql.table(table)}
    for each row execute function ${name}()`.execute(t.ctx.db);
}

export async function removeInsertFault(
  t: TestApp,
  table: 'sessions' | 'audit_events',
): Promise<void> {
  const name = sql.raw(`${table}_fault`);
  if (t.dialect === 'sqlite') {
    await sql`drop trigger ${name}`.execute(t.ctx.db);
    return;
  }
  await sql`drop trigger ${name} on ${sql.table(table)}`.execute(t.ctx.db);
  await sql`drop function ${name}()`.execute(t.ctx.db);
}
