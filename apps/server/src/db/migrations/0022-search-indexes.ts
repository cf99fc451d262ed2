import type { Kysely } from 'kysely';
import { sql } from 'kysely';

// Forward-only. The admin search reads each page as one range of one index, in that index's order
// (docs/decisions.md, "Admin search"): the name key, the e-mail, the phone then the id, or the
// creation time then the id. The filters (status, profile, roles) are columns of those indexes,
// so a filtered page is checked on index entries without reading the rows it skips; a status
// (locked, pending validation: few accounts) has its own indexes before the name and the
// creation time, so that such a page reads only the accounts it shows. The former
// one-column indexes on search_name, created_at and phone are replaced (a one-column index
// orders its ties by rowid, not by id, and the pages would sort them).
//
// search_name was back-filled by 0005 with lower() alone: accents stay, and "Élodie" is not found
// by "elodie". The key is computed again here as modules/users/search-key.ts computes it (a
// migration keeps its own copy: it must do tomorrow what it does today).
const BATCH = 1000;

function searchKey(firstName: string | null, lastName: string | null): string {
  return `${lastName ?? ''} ${firstName ?? ''}`
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

/** Recomputes every account's search_name that differs from the key the application computes. */
export async function recomputeSearchNames<DB>(db: Kysely<DB>): Promise<void> {
  let after = '';
  for (;;) {
    const { rows } = await sql<{
      id: string;
      first_name: string | null;
      last_name: string | null;
      search_name: string | null;
    }>`select id, first_name, last_name, search_name from users where id > ${after} order by id limit ${BATCH}`.execute(
      db,
    );
    for (const row of rows) {
      const key = searchKey(row.first_name, row.last_name);
      if (key !== row.search_name) {
        await sql`update users set search_name = ${key} where id = ${row.id}`.execute(db);
      }
    }
    const last = rows.at(-1);
    if (last === undefined) break;
    after = last.id;
  }
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await recomputeSearchNames(db);
  await db.schema.dropIndex('users_search_name_idx').execute();
  await db.schema.dropIndex('users_created_at_idx').execute();
  await db.schema.dropIndex('users_phone_idx').execute();
  // Its column leads users_status_name_idx and users_status_created_idx.
  await db.schema.dropIndex('users_status_idx').execute();
  await db.schema
    .createIndex('users_name_idx')
    .on('users')
    .columns(['search_name', 'id', 'status', 'profile', 'roles'])
    .execute();
  await db.schema
    .createIndex('users_email_search_idx')
    .on('users')
    .columns(['email', 'status', 'profile', 'roles'])
    .execute();
  await db.schema
    .createIndex('users_created_idx')
    .on('users')
    .columns(['created_at', 'id', 'status', 'profile', 'roles'])
    .execute();
  await db.schema
    .createIndex('users_status_name_idx')
    .on('users')
    .columns(['status', 'search_name', 'id'])
    .execute();
  await db.schema
    .createIndex('users_status_created_idx')
    .on('users')
    .columns(['status', 'created_at', 'id'])
    .execute();
  await db.schema.createIndex('users_phone_idx').on('users').columns(['phone', 'id']).execute();
}
