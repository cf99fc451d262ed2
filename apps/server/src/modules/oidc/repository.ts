import type { Db } from '../../db/connection.js';

// ---- oidc_store: the provider's artefacts, one row per model instance ----

export interface StoredArtefact {
  payload: string;
  expires_at: number | null;
  consumed_at: number | null;
}

export interface ArtefactRow {
  payload: string;
  grant_id: string | null;
  user_code: string | null;
  uid: string | null;
  account_id: string | null;
  expires_at: number | null;
}

/** Inserts or replaces an artefact (a replaced one keeps its consumed mark). */
export async function upsertArtefact(
  db: Db,
  id: string,
  model: string,
  row: ArtefactRow,
): Promise<void> {
  await db
    .insertInto('oidc_store')
    .values({ id, model, consumed_at: null, ...row })
    .onConflict((oc) => oc.column('id').doUpdateSet(row))
    .execute();
}

export function findArtefact(db: Db, id: string): Promise<StoredArtefact | undefined> {
  return db
    .selectFrom('oidc_store')
    .select(['payload', 'expires_at', 'consumed_at'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** An artefact of a model by one of its indexed secondary keys. */
export function findArtefactBy(
  db: Db,
  model: string,
  column: 'uid' | 'user_code',
  value: string,
): Promise<StoredArtefact | undefined> {
  return db
    .selectFrom('oidc_store')
    .select(['payload', 'expires_at', 'consumed_at'])
    .where(column, '=', value)
    .where('model', '=', model)
    .executeTakeFirst();
}

/** Marks an artefact used unless it already is; true when this call did (one conditional UPDATE). */
export async function markArtefactConsumed(db: Db, id: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('oidc_store')
    .set({ consumed_at: now })
    .where('id', '=', id)
    .where('consumed_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** When an artefact was consumed (null: not yet, or no such artefact). */
export async function consumedAtOfArtefact(db: Db, id: string): Promise<number | null> {
  const row = await db
    .selectFrom('oidc_store')
    .select('consumed_at')
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.consumed_at ?? null;
}

export async function grantIdOfArtefact(db: Db, id: string): Promise<string | null> {
  const row = await db
    .selectFrom('oidc_store')
    .select('grant_id')
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.grant_id ?? null;
}

export async function deleteArtefact(db: Db, id: string): Promise<void> {
  await db.deleteFrom('oidc_store').where('id', '=', id).execute();
}

/** Deletes the artefacts of these models that belong to a grant. */
export async function deleteArtefactsOfGrant(
  db: Db,
  grantId: string,
  models: string[],
): Promise<void> {
  await db
    .deleteFrom('oidc_store')
    .where('grant_id', '=', grantId)
    .where('model', 'in', models)
    .execute();
}

export async function deleteArtefactsOfAccount(
  db: Db,
  accountId: string,
  model: string,
): Promise<void> {
  await db
    .deleteFrom('oidc_store')
    .where('account_id', '=', accountId)
    .where('model', '=', model)
    .execute();
}

/** The stored payloads of an account's artefacts of one model (its provider sessions). */
export async function findArtefactsOfAccount(
  db: Db,
  accountId: string,
  model: string,
): Promise<string[]> {
  const rows = await db
    .selectFrom('oidc_store')
    .select('payload')
    .where('account_id', '=', accountId)
    .where('model', '=', model)
    .execute();
  return rows.map((r) => r.payload);
}

/** An account's artefacts of one model with their keys (`Model:id`). */
export function findArtefactEntriesOfAccount(
  db: Db,
  accountId: string,
  model: string,
): Promise<{ id: string; payload: string }[]> {
  return db
    .selectFrom('oidc_store')
    .select(['id', 'payload'])
    .where('account_id', '=', accountId)
    .where('model', '=', model)
    .execute();
}

/** Rewrites an artefact's payload only (its expiry, keys and consumed mark stay). */
export async function setArtefactPayload(db: Db, id: string, payload: string): Promise<void> {
  await db.updateTable('oidc_store').set({ payload }).where('id', '=', id).execute();
}

/**
 * Deletes a grant (its row, by key) and every artefact issued under it: codes and tokens. True
 * when this call deleted the grant itself (of two concurrent calls, one).
 */
export async function deleteGrantAndArtefacts(
  db: Db,
  grantKey: string,
  grantId: string,
): Promise<boolean> {
  const grant = await db.deleteFrom('oidc_store').where('id', '=', grantKey).executeTakeFirst();
  await db.deleteFrom('oidc_store').where('grant_id', '=', grantId).execute();
  return Number(grant.numDeletedRows) === 1;
}

/** Deletes the artefacts that expired before `at`; returns how many. */
export async function deleteExpiredArtefacts(db: Db, at: number): Promise<number> {
  const result = await db.deleteFrom('oidc_store').where('expires_at', '<', at).executeTakeFirst();
  return Number(result.numDeletedRows);
}

// ---- the signing keys: one internal row of the settings table ----

/** Deletes every artefact of an account: grants, tokens, codes and provider sessions. */
export async function deleteAllArtefactsOfAccount(db: Db, accountId: string): Promise<void> {
  await db.deleteFrom('oidc_store').where('account_id', '=', accountId).execute();
}
