import type { ColumnDataType, Kysely } from 'kysely';

// Forward-only. The person fields of spec §3 not stored until now (docs/domain.md): a
// professional's category (ANS TRE_R09 code), a postal address, the self-declared gender (the
// civil-status `sex` stays the INS trait) and, for a patient, the INS of the parent ("ouvrant
// droit"). All optional: existing accounts keep them empty.
export async function up(db: Kysely<unknown>): Promise<void> {
  const userColumns: [string, ColumnDataType][] = [
    ['category', 'varchar(1)'],
    ['gender', 'varchar(16)'],
    ['address_line1', 'varchar(100)'],
    ['address_line2', 'varchar(100)'],
    ['address_postal_code', 'varchar(10)'],
    ['address_city', 'varchar(100)'],
    ['address_country', 'varchar(2)'],
    ['parent_ins', 'varchar(15)'],
  ];
  for (const [name, type] of userColumns) {
    await db.schema.alterTable('users').addColumn(name, type).execute();
  }
}
