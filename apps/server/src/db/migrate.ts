import { sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import type { Migration, MigrationProvider } from 'kysely/migration';
import type { DbHandle } from './connection.js';
import * as m0001 from './migrations/0001-initial.js';
import * as m0002 from './migrations/0002-security-flows.js';
import * as m0003 from './migrations/0003-platforms.js';
import * as m0004 from './migrations/0004-oidc.js';
import * as m0005 from './migrations/0005-account-area.js';
import * as m0006 from './migrations/0006-biometrics.js';
import * as m0007 from './migrations/0007-step-up.js';
import * as m0008 from './migrations/0008-outbox-leases.js';
import * as m0009 from './migrations/0009-session-amr.js';
import * as m0010 from './migrations/0010-ins-oid.js';
import * as m0011 from './migrations/0011-backchannel-logout.js';
import * as m0012 from './migrations/0012-audit-request.js';
import * as m0013 from './migrations/0013-known-browsers.js';
import * as m0014 from './migrations/0014-terms.js';
import * as m0015 from './migrations/0015-person-fields.js';
import * as m0016 from './migrations/0016-identity-links.js';
import * as m0017 from './migrations/0017-sealed-person-fields.js';
import * as m0018 from './migrations/0018-upstream-logout.js';
import * as m0019 from './migrations/0019-authenticator-app.js';
import * as m0020 from './migrations/0020-recovery-codes.js';
import * as m0021 from './migrations/0021-assurance-levels.js';
import * as m0022 from './migrations/0022-search-indexes.js';
import * as m0023 from './migrations/0023-user-version.js';
import * as m0024 from './migrations/0024-admin-search-indexes.js';
import * as m0025 from './migrations/0025-purge-and-list-indexes.js';
import * as m0026 from './migrations/0026-byte-order-keys.js';
import * as m0027 from './migrations/0027-search-status-indexes.js';
import * as m0028 from './migrations/0028-outbox-indexes.js';

// Static list: the bundled server carries its migrations; names sort in application order.
const migrations: Record<string, Migration> = {
  '0001-initial': m0001,
  '0002-security-flows': m0002,
  '0003-platforms': m0003,
  '0004-oidc': m0004,
  '0005-account-area': m0005,
  '0006-biometrics': m0006,
  '0007-step-up': m0007,
  '0008-outbox-leases': m0008,
  '0009-session-amr': m0009,
  '0010-ins-oid': m0010,
  '0011-backchannel-logout': m0011,
  '0012-audit-request': m0012,
  '0013-known-browsers': m0013,
  '0014-terms': m0014,
  '0015-person-fields': m0015,
  '0016-identity-links': m0016,
  '0017-sealed-person-fields': m0017,
  '0018-upstream-logout': m0018,
  '0019-authenticator-app': m0019,
  '0020-recovery-codes': m0020,
  '0021-assurance-levels': m0021,
  '0022-search-indexes': m0022,
  '0023-user-version': m0023,
  '0024-admin-search-indexes': m0024,
  '0025-purge-and-list-indexes': m0025,
  '0026-byte-order-keys': m0026,
  '0027-search-status-indexes': m0027,
  '0028-outbox-indexes': m0028,
};

/** Every migration this version carries, in application order. */
export const MIGRATION_NAMES: readonly string[] = Object.keys(migrations);

const provider: MigrationProvider = { getMigrations: () => Promise.resolve(migrations) };

/**
 * Applies every pending forward-only migration; throws on the first failure. Kysely's migrator
 * takes a lock, so several nodes starting together apply each migration once.
 */
export async function migrateToLatest(
  database: Pick<DbHandle, 'db' | 'dialect' | 'openForMigrations'>,
): Promise<string[]> {
  // PostgreSQL: its own connection, free of the statement time-out (the migration lock may be
  // held by another node for as long as its migrations take).
  const own = database.openForMigrations?.();
  try {
    return await migrate(own?.db ?? database.db, database.dialect);
  } finally {
    await own?.close();
  }
}

async function migrate(db: DbHandle['db'], dialect: DbHandle['dialect']): Promise<string[]> {
  const migrator = await migratorFor(db, dialect);
  const { error, results } = await migrator.migrateToLatest();
  // Kysely types the failure `unknown`; a non-Error throw is reported by its string form.
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- see the line above
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/**
 * The migrations not yet applied, in application order, without applying them or creating the
 * bookkeeping tables (`config:check`).
 */
export async function pendingMigrations(
  database: Pick<DbHandle, 'db' | 'dialect'>,
): Promise<string[]> {
  const migrator = await migratorFor(database.db, database.dialect);
  const known = await migrator.getMigrations();
  return known.filter((m) => m.executedAt === undefined).map((m) => m.name);
}

async function migratorFor(db: DbHandle['db'], dialect: DbHandle['dialect']): Promise<Migrator> {
  // On PostgreSQL the bookkeeping tables live in the current schema (Kysely would otherwise look
  // for them in every schema of the database and find another tenant's).
  const schema =
    dialect === 'postgres'
      ? (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0]?.s
      : undefined;
  return new Migrator({
    db,
    provider,
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
}
