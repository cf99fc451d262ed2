// PostgreSQL names the violated index (`constraint`); SQLite only lists its columns in the message
// ("UNIQUE constraint failed: users.ins"), so each named unique index carries its columns too.
const UNIQUE_INDEXES = {
  users_email_uq: ['users.email'],
  users_ins_index_uq: ['users.ins_index'],
  users_professional_id_value_uq: ['users.professional_id', 'users.professional_id_type'],
  sessions_token_hash_uq: ['sessions.token_hash'],
  trusted_devices_token_uq: ['trusted_devices.token_hash'],
  link_tokens_token_uq: ['link_tokens.token_hash'],
  platforms_client_id_uq: ['platforms.client_id'],
  credentials_credential_id_uq: ['credentials.kind', 'credentials.credential_id'],
  terms_texts_pk: ['terms_texts.version', 'terms_texts.language'],
} as const satisfies Record<string, readonly string[]>;

export type UniqueIndex = keyof typeof UNIQUE_INDEXES;

const PG_UNIQUE_VIOLATION = '23505';
const SQLITE_UNIQUE_CODES = new Set(['SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY']);
const SQLITE_UNIQUE_MESSAGE = /^UNIQUE constraint failed: (.+)$/;

/**
 * A unique rule a repository enforces beyond what the index can compare (the INS under a former
 * index key during an index-key rebuild): handled as that index's violation.
 */
export class UniqueViolation extends Error {
  constructor(readonly index: UniqueIndex) {
    super(`unique violation: ${index}`);
  }
}

/**
 * Whether a database error is a unique violation (PostgreSQL 23505 or SQLite UNIQUE/PRIMARY KEY),
 * optionally of one named unique index: the one place that knows how each driver reports it.
 */
export function isUniqueViolation(err: unknown, index?: UniqueIndex): boolean {
  if (err instanceof UniqueViolation) return index === undefined || err.index === index;
  if (typeof err !== 'object' || err === null || !('code' in err)) return false;
  if (err.code === PG_UNIQUE_VIOLATION) {
    return index === undefined || ('constraint' in err && err.constraint === index);
  }
  if (typeof err.code !== 'string' || !SQLITE_UNIQUE_CODES.has(err.code)) return false;
  if (index === undefined) return true;
  const message = 'message' in err && typeof err.message === 'string' ? err.message : '';
  const columns = SQLITE_UNIQUE_MESSAGE.exec(message)?.[1];
  return columns === UNIQUE_INDEXES[index].join(', ');
}

/** What a 503 for an unavailable database tells the client to wait before retrying. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

// PostgreSQL SQLSTATEs that say the database cannot serve now, not that the request is wrong:
// connection exceptions (class 08), the server shutting down or starting (57P01–57P03), a
// statement cancelled by statement_timeout (57014), too many connections (53300), out of
// resources (53xxx), and a serialization failure or deadlock the caller may retry (40001, 40P01).
const PG_UNAVAILABLE = /^(08|53|57P0[123]$|57014$|40001$|40P01$)/;
// Node's socket errors on the way to PostgreSQL, and node-postgres's own messages for a lost
// connection or a pool that could not connect in time.
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
const PG_CLIENT_MESSAGES =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended|terminating connection)/;
// SQLite: the file is locked beyond busy_timeout, or the disk failed or is full.
const SQLITE_UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|IOERR|FULL|CANTOPEN|PROTOCOL)/;

/**
 * Whether PostgreSQL refused a statement prepared on the connection before the schema changed what
 * it returns (a migration altering a column's type or collation): "cached plan must not change
 * result type", raised at every run of that statement on that connection until it is prepared
 * again (db/connection.ts gives it a new name).
 */
export function isStalePreparedStatement(err: unknown): boolean {
  return (
    err instanceof Error &&
    'code' in err &&
    err.code === '0A000' &&
    /^cached plan must not change result type/.test(err.message)
  );
}

/**
 * Whether an error means the database is unavailable for now (down, restarting, unreachable, too
 * slow, locked, its schema changed under a prepared statement): the request gets 503 with
 * Retry-After, never 500 — the one place that knows how each driver says it.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = 'code' in err && typeof err.code === 'string' ? err.code : undefined;
  if (code !== undefined) {
    if (PG_UNAVAILABLE.test(code) && /^[0-9A-Z]{5}$/.test(code)) return true;
    if (NETWORK_CODES.has(code) || SQLITE_UNAVAILABLE.test(code)) return true;
  }
  if (PG_CLIENT_MESSAGES.test(err.message)) return true;
  // A transaction that ran a statement prepared before a migration: run again, it is prepared anew.
  if (isStalePreparedStatement(err)) return true;
  // AggregateError (a host with several addresses all refusing) carries the codes in its errors.
  return err instanceof AggregateError && err.errors.some(isDatabaseUnavailable);
}
