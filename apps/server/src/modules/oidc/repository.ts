import type { Db } from '../../db/connection.js';
import { transaction } from '../../db/transaction.js';
import { isPostgres, kept } from '../../db/connection.js';
import type { Slots } from '../../db/precompiled.js';
import { precompiled } from '../../db/precompiled.js';
import {
  activeKeyId,
  blindIndex,
  dataKeys,
  DataKeyError,
  isSealed,
  open,
  seal,
  sealedKeyId,
} from '../../security/field-crypto.js';

// ---- oidc_store: the provider's artefacts, one row per model instance ----
//
// The provider's opaque tokens, codes and session ids are bearer secrets, and so is a payload
// (an access token's `jti` is the token; an interaction's holds its session's cookie). A row is
// therefore stored under a keyed hash of the artefact's id — `<model>:<HMAC>` — and its payload
// sealed with the data key (issue 21): a stolen dump gives no usable token. The hash uses the
// index key, not a data key: a lookup hash must stay the same while data keys rotate, and the
// index key is the one meant for exact-match lookups (checked at start, never rotated in place);
// the purpose string keeps these hashes apart from the INS index. A user code is typed by a
// person, so it is hashed the same way. Uid, grant and account ids stay clear: they find rows
// but grant nothing on their own.

/** The stored key of an artefact: its model and the keyed hash of its id. */
export function artefactKey(model: string, id: string): string {
  return `${model}:${blindIndex(dataKeys(), 'oidc_store.id', `${model}:${id}`)}`;
}

function userCodeIndex(userCode: string): string {
  return blindIndex(dataKeys(), 'oidc_store.user_code', userCode);
}

/** The payload's additional data: the row it belongs to (a payload moved to another row fails). */
const payloadContext = (key: string) => `oidc_store.payload:${key}`;

function sealPayload(key: string, payload: string): string {
  return seal(dataKeys(), payloadContext(key), payload);
}

/**
 * The plain payload of a row. One still in clear (an upgraded installation's, sealed at the next
 * start by `sealClearArtefacts`) reads as it is.
 */
function openPayload(key: string, stored: string): string {
  return isSealed(stored) ? open(dataKeys(), payloadContext(key), stored) : stored;
}

export interface StoredArtefact {
  /** The payload's JSON, opened. */
  payload: string;
  expires_at: number | null;
  consumed_at: number | null;
}

export interface ArtefactRow {
  /** The payload's JSON (sealed here). */
  payload: string;
  grant_id: string | null;
  /** In clear (hashed here). */
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
  const key = artefactKey(model, id);
  const stored = {
    ...row,
    payload: sealPayload(key, row.payload),
    user_code: row.user_code === null ? null : userCodeIndex(row.user_code),
  };
  await artefactUpserted.run(db, { ...stored, key, model });
}

// The provider's statements at each authorization, token and refresh, compiled once per database
// (`precompiled`).
const artefactUpserted = precompiled(
  (db: Db, $: Slots<ArtefactRow & { key: string; model: string }>) => {
    const stored = {
      payload: $('payload'),
      grant_id: $('grant_id'),
      user_code: $('user_code'),
      uid: $('uid'),
      account_id: $('account_id'),
      expires_at: $('expires_at'),
    } satisfies Record<keyof ArtefactRow, unknown>;
    return kept(
      db
        .insertInto('oidc_store')
        .values({ id: $('key'), model: $('model'), consumed_at: null, ...stored })
        .onConflict((oc) => oc.column('id').doUpdateSet(stored)),
    );
  },
);

const ARTEFACT_COLUMNS = ['id', 'payload', 'expires_at', 'consumed_at'] as const;
const artefactByKey = precompiled((db: Db, $: Slots<{ key: string }>) =>
  kept(db.selectFrom('oidc_store').select(ARTEFACT_COLUMNS).where('id', '=', $('key'))),
);
const artefactBySecondaryKey = (column: 'uid' | 'user_code') =>
  precompiled((db: Db, $: Slots<{ value: string; model: string }>) =>
    kept(
      db
        .selectFrom('oidc_store')
        .select(ARTEFACT_COLUMNS)
        .where(column, '=', $('value'))
        .where('model', '=', $('model')),
    ),
  );
const artefactByUid = artefactBySecondaryKey('uid');
const artefactByUserCode = artefactBySecondaryKey('user_code');
const artefactConsumed = precompiled((db: Db, $: Slots<{ key: string; now: number }>) =>
  kept(
    db
      .updateTable('oidc_store')
      .set({ consumed_at: $('now') })
      .where('id', '=', $('key'))
      .where('consumed_at', 'is', null),
  ),
);
const consumedAtByKey = precompiled((db: Db, $: Slots<{ key: string }>) =>
  kept(db.selectFrom('oidc_store').select('consumed_at').where('id', '=', $('key'))),
);
const grantIdByKey = precompiled((db: Db, $: Slots<{ key: string }>) =>
  kept(db.selectFrom('oidc_store').select('grant_id').where('id', '=', $('key'))),
);
const artefactDeleted = precompiled((db: Db, $: Slots<{ key: string }>) =>
  kept(db.deleteFrom('oidc_store').where('id', '=', $('key'))),
);
const artefactsOfAccountDeleted = precompiled(
  (db: Db, $: Slots<{ accountId: string; model: string }>) =>
    kept(
      db
        .deleteFrom('oidc_store')
        .where('account_id', '=', $('accountId'))
        .where('model', '=', $('model')),
    ),
);
const artefactsOfAccount = precompiled((db: Db, $: Slots<{ accountId: string; model: string }>) =>
  kept(
    db
      .selectFrom('oidc_store')
      .select(['id', 'payload'])
      .where('account_id', '=', $('accountId'))
      .where('model', '=', $('model')),
  ),
);

function opened<R extends { id: string; payload: string }>(row: R | undefined) {
  return row && { ...row, payload: openPayload(row.id, row.payload) };
}

export async function findArtefact(
  db: Db,
  id: string,
  model: string,
): Promise<StoredArtefact | undefined> {
  return opened(await artefactByKey.first(db, { key: artefactKey(model, id) }));
}

/** An artefact of a model by one of its indexed secondary keys. */
export async function findArtefactBy(
  db: Db,
  model: string,
  column: 'uid' | 'user_code',
  value: string,
): Promise<StoredArtefact | undefined> {
  const row =
    column === 'user_code'
      ? await artefactByUserCode.first(db, { value: userCodeIndex(value), model })
      : await artefactByUid.first(db, { value, model });
  return opened(row);
}

/** Marks an artefact used unless it already is; true when this call did (one conditional UPDATE). */
export async function markArtefactConsumed(
  db: Db,
  id: string,
  model: string,
  now: number,
): Promise<boolean> {
  const { numAffectedRows } = await artefactConsumed.run(db, { key: artefactKey(model, id), now });
  return numAffectedRows === 1n;
}

/** When an artefact was consumed (null: not yet, or no such artefact). */
export async function consumedAtOfArtefact(
  db: Db,
  id: string,
  model: string,
): Promise<number | null> {
  const row = await consumedAtByKey.first(db, { key: artefactKey(model, id) });
  return row?.consumed_at ?? null;
}

export async function grantIdOfArtefact(db: Db, id: string, model: string): Promise<string | null> {
  const row = await grantIdByKey.first(db, { key: artefactKey(model, id) });
  return row?.grant_id ?? null;
}

export async function deleteArtefact(db: Db, id: string, model: string): Promise<void> {
  await artefactDeleted.run(db, { key: artefactKey(model, id) });
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
  await artefactsOfAccountDeleted.run(db, { accountId, model });
}

/** The payloads (opened) of an account's artefacts of one model (its provider sessions). */
export async function findArtefactsOfAccount(
  db: Db,
  accountId: string,
  model: string,
): Promise<string[]> {
  return (await findArtefactEntriesOfAccount(db, accountId, model)).map((r) => r.payload);
}

/** An account's artefacts of one model: their stored keys and payloads (opened). */
export async function findArtefactEntriesOfAccount(
  db: Db,
  accountId: string,
  model: string,
): Promise<{ id: string; payload: string }[]> {
  const rows = await artefactsOfAccount.all(db, { accountId, model });
  return rows.map((row) => ({ id: row.id, payload: openPayload(row.id, row.payload) }));
}

/** Rewrites an artefact's payload only, by its stored key (its expiry, keys and consumed mark stay). */
export async function setArtefactPayload(db: Db, key: string, payload: string): Promise<void> {
  await db
    .updateTable('oidc_store')
    .set({ payload: sealPayload(key, payload) })
    .where('id', '=', key)
    .execute();
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

/** Deletes every artefact of an account: grants, tokens, codes and provider sessions. */
export async function deleteAllArtefactsOfAccount(db: Db, accountId: string): Promise<void> {
  await db.deleteFrom('oidc_store').where('account_id', '=', accountId).execute();
}

// ---- sealing: an upgraded installation's rows, and data-key rotation ----

/**
 * Moves the rows written before sealing existed (`<model>:<token>`, payload in clear) under the
 * hashed key with the payload sealed, in batches; returns how many. The content is unchanged, so
 * a refresh token or provider session issued before the upgrade keeps working. Each row moves in
 * one transaction (the old row deleted, then the new one inserted): of nodes starting together,
 * the one whose delete took the row inserts it, and a crash leaves the row where it was.
 */
export async function sealClearArtefacts(db: Db, batchSize = 200): Promise<number> {
  let moved = 0;
  for (;;) {
    const rows = await db
      .selectFrom('oidc_store')
      .selectAll()
      .where('payload', 'not like', 'v1.%')
      .orderBy('id')
      .limit(batchSize)
      .execute();
    if (rows.length === 0) return moved;
    for (const row of rows) {
      const prefix = `${row.model}:`;
      const id = row.id.startsWith(prefix) ? row.id.slice(prefix.length) : row.id;
      const key = artefactKey(row.model, id);
      await transaction(db, async (trx) => {
        const taken = await trx
          .deleteFrom('oidc_store')
          .where('id', '=', row.id)
          .where('payload', '=', row.payload)
          .executeTakeFirst();
        if (Number(taken.numDeletedRows) !== 1) return;
        await trx
          .insertInto('oidc_store')
          .values({
            ...row,
            id: key,
            payload: sealPayload(key, row.payload),
            user_code: row.user_code === null ? null : userCodeIndex(row.user_code),
          })
          .onConflict((oc) => oc.column('id').doNothing())
          .execute();
        moved += 1;
      });
    }
  }
}

/** How many payloads each key id seals (`clear`: stored before sealing), and the first of each. */
export async function sealedArtefactsCensus(
  db: Db,
  batchSize = 1000,
): Promise<{ byKey: Record<string, number>; firstOf: Record<string, string> }> {
  const census: { byKey: Record<string, number>; firstOf: Record<string, string> } = {
    byKey: {},
    firstOf: {},
  };
  let after = '';
  for (;;) {
    const rows = await db
      .selectFrom('oidc_store')
      .select(['id', 'payload'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(batchSize)
      .execute();
    for (const row of rows) {
      const keyId = sealedKeyId(row.payload);
      census.byKey[keyId] = (census.byKey[keyId] ?? 0) + 1;
      census.firstOf[keyId] ??= `oidc_store row ${row.id}`;
    }
    const last = rows.at(-1);
    if (!last || rows.length < batchSize) return census;
    after = last.id;
  }
}

/**
 * Re-seals with the active key the payloads of the next `batchSize` artefacts after `afterKey`
 * sealed under another key, in one short transaction: every payload of the batch is opened
 * before anything is written (one that does not open throws DataKeyError, the batch writes
 * nothing), and each is written only over the value read, so a provider update made meanwhile
 * is kept (and counted as a conflict).
 */
export async function resealArtefactBatch(
  db: Db,
  afterKey: string,
  batchSize: number,
): Promise<{ lastId: string | null; resealed: number; conflicts: number }> {
  const current = `v1.${activeKeyId(dataKeys())}.%`;
  return transaction(db, async (trx) => {
    const rows = await trx
      .selectFrom('oidc_store')
      .select(['id', 'payload'])
      .where('id', '>', afterKey)
      .where('payload', 'like', 'v1.%')
      .where('payload', 'not like', current)
      .orderBy('id')
      .limit(batchSize)
      .$if(isPostgres(trx), (qb) => qb.forUpdate())
      .execute();
    const plans = rows.map((row) => {
      try {
        return { ...row, plain: openPayload(row.id, row.payload) };
      } catch (err) {
        const reason = err instanceof Error ? err.message : String(err);
        throw new DataKeyError(`oidc_store row ${row.id}: ${reason}`);
      }
    });
    let resealed = 0;
    let conflicts = 0;
    for (const plan of plans) {
      const result = await trx
        .updateTable('oidc_store')
        .set({ payload: sealPayload(plan.id, plan.plain) })
        .where('id', '=', plan.id)
        .where('payload', '=', plan.payload)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 1) resealed += 1;
      else conflicts += 1;
    }
    return { lastId: rows.at(-1)?.id ?? null, resealed, conflicts };
  });
}
