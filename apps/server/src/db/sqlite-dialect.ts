import type { DatabaseConnection, Driver, SqliteDialectConfig } from 'kysely';
import { CompiledQuery, SqliteDialect, SqliteDriver } from 'kysely';

/**
 * Starts every transaction with `begin immediate`: it takes the file's write lock at once (waiting
 * for it up to the busy time-out), so a transaction that reads, then writes, is never refused
 * halfway because another process (a command such as `data:rotate-key` running beside the
 * portal) wrote in between — SQLite's plain `begin` answers SQLITE_BUSY at the first write then,
 * without waiting. Within the process, transactions already run one at a time on its connection.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

export class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;

  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }
}
