import type { CompiledQuery } from 'kysely';
import { CompiledQuery as Compiled, sql } from 'kysely';
import type { Db, Dialect } from '../db/connection.js';

/**
 * Records the statements the app sends to the database, so that plan tests explain the queries
 * the code really runs rather than a hand-written copy of them.
 */
export class QueryLog {
  private recording: CompiledQuery[] | undefined;
  private turns: number[] = [];
  private turn = 0;
  private turnEnding = false;

  add(query: CompiledQuery): void {
    if (!this.recording) return;
    this.recording.push(query);
    this.turns.push(this.turn);
    if (this.turnEnding) return;
    this.turnEnding = true;
    setImmediate(() => {
      this.turn++;
      this.turnEnding = false;
    });
  }

  /** The statements recorded so far by the `during` or `withTurns` under way. */
  recorded(): CompiledQuery[] {
    return [...(this.recording ?? [])];
  }

  /** Runs `action` and returns the statements it sent, in order. */
  async during(action: () => Promise<unknown>): Promise<CompiledQuery[]> {
    return (await this.withTurns(action)).queries;
  }

  /**
   * Runs `action` and returns the statements it sent, in order, each with the turn of the event
   * loop it was logged in. A statement started once an earlier one is answered comes a turn later
   * (the answer is read from the socket); statements started together share their turn. So, for
   * the statements a pipelined transaction logs as it sends them (db/transaction.ts), the turns
   * between its `begin` and its `commit` are its round trips.
   */
  async withTurns(
    action: () => Promise<unknown>,
  ): Promise<{ queries: CompiledQuery[]; turns: number[] }> {
    const queries: CompiledQuery[] = [];
    this.recording = queries;
    this.turns = [];
    try {
      await action();
    } finally {
      this.recording = undefined;
    }
    return { queries, turns: this.turns };
  }
}

/**
 * The plan of a recorded statement, with its own parameters. On PostgreSQL sequential scans are
 * switched off for the explain: small test tables make a scan cheapest, and the question is
 * whether an index can serve the query at all.
 */
export async function explain(db: Db, dialect: Dialect, query: CompiledQuery): Promise<string> {
  if (dialect === 'sqlite') {
    const plan = await db.executeQuery<{ detail: string }>(
      Compiled.raw(`explain query plan ${query.sql}`, [...query.parameters]),
    );
    return plan.rows.map((r) => r.detail).join('\n');
  }
  return db.connection().execute(async (conn) => {
    await sql`set enable_seqscan = off`.execute(conn);
    try {
      const plan = await conn.executeQuery<{ 'QUERY PLAN': string }>(
        Compiled.raw(`explain ${query.sql}`, [...query.parameters]),
      );
      return plan.rows.map((r) => r['QUERY PLAN']).join('\n');
    } finally {
      await sql`reset enable_seqscan`.execute(conn);
    }
  });
}

/**
 * The plan the database would choose for a recorded statement, with its parameters and the
 * planner's own settings (no scan switched off): for tables seeded and analysed so that the
 * choice is the one a large table gets.
 */
export async function explainAsPlanned(
  db: Db,
  dialect: Dialect,
  query: CompiledQuery,
): Promise<string> {
  const prefix = dialect === 'sqlite' ? 'explain query plan' : 'explain';
  const plan = await db.executeQuery<Record<string, unknown>>(
    Compiled.raw(`${prefix} ${query.sql}`, [...query.parameters]),
  );
  return plan.rows.map((r) => String(dialect === 'sqlite' ? r.detail : r['QUERY PLAN'])).join('\n');
}
