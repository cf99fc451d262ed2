import type { Kysely } from 'kysely';
import { sql } from 'kysely';

// Forward-only. The admin search's role filter on its own indexes (docs/decisions.md "Admin
// search"): admins are a handful among the accounts, so a page of admins by name, by creation
// time or by e-mail read the whole range of the name, the list or the prefix to find them. Each
// order the search uses gets a partial index of the admins' entries alone (their `roles` JSON
// array holds "admin"), in that order. The search writes the same predicate, as a literal, so
// that both planners can prove the index holds every row the query wants
// (modules/users/repository.ts ADMIN_ROLE_PATTERN).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index users_admin_name_idx on users (search_name, id)
    where roles like '%"admin"%'`.execute(db);
  await sql`create index users_admin_created_idx on users (created_at, id)
    where roles like '%"admin"%'`.execute(db);
  await sql`create index users_admin_email_idx on users (email)
    where roles like '%"admin"%'`.execute(db);
}
