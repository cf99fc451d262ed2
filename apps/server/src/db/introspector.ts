import type {
  ColumnMetadata,
  DatabaseIntrospector,
  DatabaseMetadataOptions,
  Kysely,
  SchemaMetadata,
  TableMetadata,
} from 'kysely';
import { PostgresDialect, sql } from 'kysely';

// Kysely's PostgreSQL introspection reads every table of every schema of the database, calling
// `pg_get_serial_sequence` on each column: when another schema is dropped meanwhile (another
// tenant's, or another test file's), the call names a schema that no longer exists and the whole
// introspection fails — and with it the migrator, which introspects to find its bookkeeping
// tables, so a node fails to start. The portal only ever looks at its own schema (the first of
// its search path), so it introspects that one alone.

interface ColumnRow {
  table: string;
  kind: string;
  schema: string;
  column: string | null;
  type: string | null;
  type_schema: string | null;
  not_null: boolean | null;
  has_default: boolean | null;
  auto_incrementing: boolean | null;
}

const KYSELY_TABLES = new Set(['kysely_migration', 'kysely_migration_lock']);

/** The tables, views and their columns of the current schema only (`current_schema()`). */
export class CurrentSchemaIntrospector implements DatabaseIntrospector {
  readonly #db: Kysely<unknown>;

  constructor(db: Kysely<unknown>) {
    this.#db = db;
  }

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<{ name: string }>`
      select nspname as name from pg_catalog.pg_namespace
    `.execute(this.#db);
    return rows;
  }

  async getTables(
    options: DatabaseMetadataOptions = { withInternalKyselyTables: false },
  ): Promise<TableMetadata[]> {
    const { rows } = await sql<ColumnRow>`
      select c.relname as table, c.relkind as kind, ns.nspname as schema,
             a.attname as column, typ.typname as type, tns.nspname as type_schema,
             a.attnotnull as not_null, a.atthasdef as has_default,
             (a.attidentity <> '' or pg_get_serial_sequence(
               quote_ident(ns.nspname) || '.' || quote_ident(c.relname), a.attname) is not null
             ) as auto_incrementing
      from pg_catalog.pg_class c
      join pg_catalog.pg_namespace ns on ns.oid = c.relnamespace
      left join pg_catalog.pg_attribute a
        on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
      left join pg_catalog.pg_type typ on typ.oid = a.atttypid
      left join pg_catalog.pg_namespace tns on tns.oid = typ.typnamespace
      where ns.nspname = current_schema() and c.relkind in ('r', 'v', 'p', 'f')
      order by c.relname, a.attnum
    `.execute(this.#db);
    const tables = new Map<string, { row: ColumnRow; columns: ColumnMetadata[] }>();
    for (const row of rows) {
      if (!options.withInternalKyselyTables && KYSELY_TABLES.has(row.table)) continue;
      const table = tables.get(row.table) ?? { row, columns: [] };
      tables.set(row.table, table);
      if (row.column === null) continue;
      table.columns.push({
        name: row.column,
        dataType: row.type ?? '',
        ...(row.type_schema ? { dataTypeSchema: row.type_schema } : {}),
        isNullable: row.not_null !== true,
        hasDefaultValue: row.has_default === true,
        isAutoIncrementing: row.auto_incrementing === true,
      });
    }
    return [...tables.values()].map(({ row, columns }) => ({
      name: row.table,
      schema: row.schema,
      isView: row.kind === 'v',
      isForeign: row.kind === 'f',
      columns,
    }));
  }
}

/** PostgreSQL, introspecting the current schema only (see above). */
export class CurrentSchemaPostgresDialect extends PostgresDialect {
  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new CurrentSchemaIntrospector(db);
  }
}
