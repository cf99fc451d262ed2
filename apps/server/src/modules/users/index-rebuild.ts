import type { AppContext } from '../../context.js';
import { dataKeys } from '../../security/field-crypto.js';
import { INDEX_KEY_CHECK, INDEX_KEY_NEXT, indexKeyCheck } from '../../security/key-checks.js';
import { deleteSettingIfValue, findSettingValue, swapSettingValue } from '../settings/service.js';
import { staleInsIndexes, writeInsIndexes } from './repository.js';

// `npm run data:rotate-key -- --index` (issue 21): when the index key must change (it may have
// leaked), every blind index is recomputed under the new key while the portal runs.
//
// The nodes run with DATA_INDEX_KEY="new,old": they write indexes under the new key only, and
// look an INS up under both (one `in` on the unique index), so sign-in by INS and the admin search
// find an account whether or not it was rebuilt yet. The unique index cannot compare an index
// under the new key with one under the old: while former keys are configured, every write of an
// INS also refuses an INS another account holds under a former key (repository.ts). The rebuild
// walks the accounts by id in batches, compare-and-set per account, so it can stop and start again
// anywhere; once no index is left under a former key, it moves the index check value to the new
// key — from then on a node started with the old key alone is refused, and the old key can go.
//
// The indexes computed with the index key: users.ins_index (the INS, purpose `users.ins`). A new
// blind index would add its own stale/write pair to the repository and a step here.

export interface IndexKeyCheck {
  /** Accounts holding an INS (each has one index). */
  indexes: number;
  /** Indexes not under the active index key (the first of DATA_INDEX_KEY). */
  remaining: number;
  /** Whether the check value already names the active key (the rebuild has ended). */
  checkValueMoved: boolean;
}

export interface IndexRebuild extends IndexKeyCheck {
  rebuilt: number;
  batches: number;
  /** Accounts whose INS changed while their batch ran (indexed by that change, looked at again). */
  conflicts: number;
  /** True when stopped by `maxBatches` before the end (run it again to continue). */
  stopped: boolean;
}

export interface IndexRebuildOptions {
  batchSize?: number;
  maxBatches?: number;
}

/** Passes over the table while requests keep writing under a former key (a node not restarted). */
const MAX_PASSES = 5;

async function checkValueIsActive(ctx: Pick<AppContext, 'db'>): Promise<boolean> {
  return (await findSettingValue(ctx.db, INDEX_KEY_CHECK)) === indexKeyCheck(dataKeys().index);
}

/** Counts the indexes left under a former key, writing nothing (`--index --check`). */
export async function checkIndexRebuild(
  ctx: Pick<AppContext, 'db'>,
  batchSize = 1000,
): Promise<IndexKeyCheck> {
  let indexes = 0;
  let remaining = 0;
  let after = '';
  for (;;) {
    const batch = await staleInsIndexes(ctx.db, after, batchSize);
    if (batch.lastId === null) break;
    indexes += batch.seen;
    remaining += batch.stale.length;
    after = batch.lastId;
  }
  return { indexes, remaining, checkValueMoved: await checkValueIsActive(ctx) };
}

/**
 * The next accounts after `after` with an index to rebuild: read `batchSize` at a time, going past
 * those already rebuilt (which only costs reading), so that a run started again — or one stopped
 * by `maxBatches` — moves on instead of counting the same done accounts as a batch.
 */
async function nextStaleBatch(ctx: Pick<AppContext, 'db'>, after: string, batchSize: number) {
  let cursor = after;
  for (;;) {
    const read = await staleInsIndexes(ctx.db, cursor, batchSize);
    if (read.lastId === null || read.stale.length > 0) return read;
    cursor = read.lastId;
  }
}

/**
 * Recomputes under the active index key every INS index still under another one, in batches,
 * then moves the index check value to the active key (compare-and-set from the former key's, so
 * two runs at once move it once). Safe while the portal runs; resumable by running it again.
 */
export async function rebuildIndexes(
  ctx: Pick<AppContext, 'db' | 'clock'>,
  options: IndexRebuildOptions = {},
): Promise<IndexRebuild> {
  const batchSize = options.batchSize ?? 200;
  let rebuilt = 0;
  let batches = 0;
  let conflicts = 0;
  let stopped = false;
  for (let pass = 0; pass < MAX_PASSES && !stopped; pass += 1) {
    let after = '';
    let passConflicts = 0;
    for (;;) {
      if (options.maxBatches !== undefined && batches >= options.maxBatches) {
        stopped = true;
        break;
      }
      const batch = await nextStaleBatch(ctx, after, batchSize);
      if (batch.lastId === null) break;
      batches += 1;
      const written = await writeInsIndexes(ctx.db, batch.stale);
      rebuilt += written.rebuilt;
      passConflicts += written.conflicts;
      after = batch.lastId;
    }
    conflicts += passConflicts;
    if (passConflicts === 0) break;
  }
  const check = await checkIndexRebuild(ctx);
  if (check.remaining === 0 && !stopped) {
    const keyring = dataKeys();
    const active = indexKeyCheck(keyring.index);
    if (!check.checkValueMoved) {
      const stored = await findSettingValue(ctx.db, INDEX_KEY_CHECK);
      const former = (keyring.formerIndexes ?? []).map(indexKeyCheck);
      if (stored !== undefined && former.includes(stored)) {
        await swapSettingValue(ctx.db, INDEX_KEY_CHECK, stored, active, ctx.clock.now());
      }
      check.checkValueMoved = await checkValueIsActive(ctx);
    }
    // The change is over: nodes may start with the new key alone, and a next change may begin.
    if (check.checkValueMoved) await deleteSettingIfValue(ctx.db, INDEX_KEY_NEXT, active);
  }
  return { ...check, rebuilt, batches, conflicts, stopped };
}
