import { PostgresAdapter, type Kysely } from 'kysely';

// Forward-only. The INS, its OID, the parent's INS and the birth traits are stored sealed
// (AES-256-GCM, `v1.<key>.<iv>.<ciphertext>`, security/field-crypto.ts): their columns widen, and
// the INS is found through `ins_index`, its keyed blind index, which takes over the uniqueness of
// `users_ins_uq`. The keys are not the migration's: the values already stored are sealed at
// start-up, once the keys have passed their check (modules/users sealClearPersonFields).
const SEALED = ['ins', 'ins_oid', 'parent_ins', 'birth_date', 'birth_place_insee', 'sex'];
/** `v1.` + a 16-character key id + IV + the longest value (a 32-character OID) and its tag. */
const SEALED_TYPE = 'varchar(200)';

export async function up(db: Kysely<unknown>): Promise<void> {
  // SQLite does not enforce varchar lengths: only PostgreSQL's columns widen.
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    for (const column of SEALED) {
      await db.schema
        .alterTable('users')
        .alterColumn(column, (c) => c.setDataType(SEALED_TYPE))
        .execute();
    }
  }
  await db.schema.alterTable('users').addColumn('ins_index', 'varchar(64)').execute();
  await db.schema.dropIndex('users_ins_uq').execute();
  await db.schema
    .createIndex('users_ins_index_uq')
    .on('users')
    .column('ins_index')
    .unique()
    .execute();
}
