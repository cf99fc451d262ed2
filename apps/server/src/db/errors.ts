// PostgreSQL names the violated index (`constraint`); SQLite only lists its columns in the message
// ("UNIQUE constraint failed: users.ins"), so each named unique index carries its columns too.
const UNIQUE_INDEXES = {
  users_email_uq: ['users.email'],
  users_ins_uq: ['users.ins'],
  users_professional_id_uq: ['users.professional_id_type', 'users.professional_id'],
  sessions_token_hash_uq: ['sessions.token_hash'],
  trusted_devices_token_uq: ['trusted_devices.token_hash'],
  link_tokens_token_uq: ['link_tokens.token_hash'],
  platforms_client_id_uq: ['platforms.client_id'],
  credentials_credential_id_uq: ['credentials.kind', 'credentials.credential_id'],
} as const satisfies Record<string, readonly string[]>;

export type UniqueIndex = keyof typeof UNIQUE_INDEXES;

const PG_UNIQUE_VIOLATION = '23505';
const SQLITE_UNIQUE_CODES = new Set(['SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY']);
const SQLITE_UNIQUE_MESSAGE = /^UNIQUE constraint failed: (.+)$/;

/**
 * Whether a database error is a unique violation (PostgreSQL 23505 or SQLite UNIQUE/PRIMARY KEY),
 * optionally of one named unique index: the one place that knows how each driver reports it.
 */
export function isUniqueViolation(err: unknown, index?: UniqueIndex): boolean {
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
