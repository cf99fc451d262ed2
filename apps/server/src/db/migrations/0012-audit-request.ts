import type { Kysely } from 'kysely';

// Forward-only. Each audit event names the request that caused it (the X-Request-Id the response
// and every log line of that request carry) and the client's user agent.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('audit_events').addColumn('request_id', 'varchar(128)').execute();
  await db.schema.alterTable('audit_events').addColumn('user_agent', 'varchar(512)').execute();
}
