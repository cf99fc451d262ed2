import type { Kysely } from 'kysely';

// Forward-only. A session opened through an upstream identity provider keeps the provider and
// its ID token, for the RP-initiated logout at the provider when the portal signs out
// (`id_token_hint`). The token carries personal data: it is stored sealed with the data key
// (security/field-crypto.ts), and goes with its session row (expiry, admin, other sign-outs).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sessions').addColumn('upstream_provider', 'varchar(40)').execute();
  await db.schema.alterTable('sessions').addColumn('upstream_id_token', 'text').execute();
}
