import type { Kysely } from 'kysely';
import { sql } from 'kysely';

// Forward-only. The admin search filtered by a status, on SQLite as the portal keeps it: without
// statistics (it never analyses its file; modules/admin/search-plan.test.ts explains every
// search in both states). The planner then goes by its rules, which rank an equality on an
// index's first column above a range or a list of values, and it preferred the status's own
// indexes to the key's:
// - an e-mail prefix with a status read every account of that status and sorted them: 26 ms at
//   p50 for "martin" among the locked accounts of a million, none of which matched
//   (bench/search.mjs);
// - a professional identifier with a status read them all too (26–46 ms), as its unique index
//   began with the type, which the search lists (six types: six probes, ranked below the
//   status's one).
// The e-mail gets the status's index in its order, as the name has (users_status_name_idx): one
// range, the status fixed and the e-mail ranged. The professional identifier's unique index
// begins with the value, then the type: the same rule (one account a type and value), the value
// probed once whatever the types listed, and sign-in's lookup (type and value) served alike.
//
// The accounts without a profile (`type=none`: the portal's staff, a few) were found by walking
// the whole order they were asked in, every other account's entry checked and skipped: 172 ms
// for the newest first at a million, 752 ms with a status, on SQLite the event loop held. Like
// the admins (0024), they get partial indexes of their own in each of the search's orders: their
// entries are theirs alone, so they cost nobody else's writes.
//
// An operator may build the new indexes first (PostgreSQL's `create index concurrently`, under
// the same names, docs/operations.md): the migration then finds them built.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('users_status_email_idx')
    .ifNotExists()
    .on('users')
    .columns(['status', 'email'])
    .execute();
  await db.schema
    .createIndex('users_professional_id_value_uq')
    .ifNotExists()
    .on('users')
    .columns(['professional_id', 'professional_id_type'])
    .unique()
    .execute();
  await db.schema.dropIndex('users_professional_id_uq').ifExists().execute();
  const unprofiled = (name: string, columns: string[]) =>
    db.schema
      .createIndex(name)
      .ifNotExists()
      .on('users')
      .columns(columns)
      .where(sql.ref('profile'), 'is', null)
      .execute();
  await unprofiled('users_unprofiled_created_idx', ['created_at', 'id']);
  await unprofiled('users_unprofiled_name_idx', ['search_name', 'id']);
  await unprofiled('users_unprofiled_email_idx', ['email']);
}
