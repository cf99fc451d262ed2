import type { AppContext } from '../../context.js';
import type { Db } from '../../db/connection.js';
import { DataKeyError, dataKeys } from '../../security/field-crypto.js';
import { resealArtefactBatch, sealedArtefactsCensus } from '../oidc/service.js';
import { resealUpstreamTokenBatch, sealedUpstreamTokenCensus } from '../sessions/service.js';
import { resealSettings, sealedSettingsCensus } from '../settings/service.js';
import { resealBatch, sealedKeyCensus } from './repository.js';

// `npm run data:rotate-key` (issue 21): re-seals with the active data key every value sealed
// under another one — the users' health identifiers, the secret settings (server secret, OIDC
// signing keys), the OIDC provider's artefacts and the sessions' upstream ID tokens. The values
// themselves say what is left to do (the key id each one carries), so a stopped rotation continues
// where it was by being run again.

/** Where the sealed values stand against the configured keys. */
export interface DataKeyCheck {
  /** The key new values are sealed with (the first of DATA_ENCRYPTION_KEY). */
  activeKey: string;
  /** How many values each key id holds (`clear`: stored before sealing existed). */
  byKey: Record<string, number>;
  /** Values still to re-seal (under any key but the active one). */
  remaining: number;
}

export interface DataKeyRotation extends DataKeyCheck {
  resealed: number;
  batches: number;
  /** Accounts a request changed while their batch ran (looked at again in another pass). */
  conflicts: number;
  /** True when stopped by `maxBatches` before the end (run it again to continue). */
  stopped: boolean;
}

export interface RotationOptions {
  /** Accounts per batch, each batch one short transaction. */
  batchSize?: number;
  /** Stop after this many batches (the rest is done by the next run). */
  maxBatches?: number;
}

/** Passes over the table while requests keep changing rows under an old key (a node not restarted). */
const MAX_PASSES = 5;

function activeKeyId(): string {
  const active = dataKeys().keys[0];
  if (!active) throw new DataKeyError('no data key');
  return active.id;
}

interface Census {
  byKey: Record<string, number>;
  /** Where the first value under each key id is (to name it when that key is not configured). */
  firstOf: Record<string, string>;
}

/** Every sealed value of the database counted by key id (read in batches, nothing opened). */
async function census(db: Db): Promise<Census> {
  const users = await sealedKeyCensus(db);
  const parts: Census[] = [
    {
      byKey: users.byKey,
      firstOf: Object.fromEntries(
        Object.entries(users.firstOf).map(([keyId, at]) => [
          keyId,
          `users.${at.column} of account ${at.userId}`,
        ]),
      ),
    },
    await sealedSettingsCensus(db),
    await sealedArtefactsCensus(db),
    await sealedUpstreamTokenCensus(db),
  ];
  const total: Census = { byKey: {}, firstOf: {} };
  for (const part of parts) {
    for (const [keyId, count] of Object.entries(part.byKey)) {
      total.byKey[keyId] = (total.byKey[keyId] ?? 0) + count;
    }
    for (const [keyId, at] of Object.entries(part.firstOf)) total.firstOf[keyId] ??= at;
  }
  return total;
}

/** One table's batches: re-seal the next rows after a key, say the last one looked at. */
type ResealBatch = (
  db: Db,
  after: string,
  batchSize: number,
) => Promise<{ lastId: string | null; resealed: number; conflicts: number }>;

/** Counts what a rotation has left to do, writing nothing (`data:rotate-key --check`). */
export async function checkDataKeyRotation(ctx: Pick<AppContext, 'db'>): Promise<DataKeyCheck> {
  const activeKey = activeKeyId();
  const { byKey } = await census(ctx.db);
  const remaining = Object.entries(byKey)
    .filter(([keyId]) => keyId !== activeKey)
    .reduce((sum, [, count]) => sum + count, 0);
  return { activeKey, byKey, remaining };
}

/**
 * Re-seals with the active key every value sealed under another one, in batches. Refuses before
 * writing anything when a value carries a key id that is not configured; a value that does not
 * open with its key fails its batch, which writes nothing. Safe while the portal runs: a row
 * edited meanwhile keeps the edit (the batch compares before writing) and is looked at again.
 */
export async function rotateDataKey(
  ctx: Pick<AppContext, 'db'>,
  options: RotationOptions = {},
): Promise<DataKeyRotation> {
  const batchSize = options.batchSize ?? 200;
  const configured = new Set(dataKeys().keys.map((key) => key.id));
  const found = await census(ctx.db);
  const keyId = Object.keys(found.byKey).find((id) => id !== 'clear' && !configured.has(id));
  if (keyId !== undefined) {
    throw new DataKeyError(
      `${found.byKey[keyId] ?? 0} values are sealed with data key "${keyId}", which is not configured (${found.firstOf[keyId] ?? '?'}): add it to DATA_ENCRYPTION_KEY; nothing was re-encrypted`,
    );
  }
  let resealed = 0;
  let batches = 0;
  let conflicts = 0;
  let stopped = false;
  const tables: ResealBatch[] = [resealBatch, resealArtefactBatch, resealUpstreamTokenBatch];
  for (const reseal of tables) {
    for (let pass = 0; pass < MAX_PASSES && !stopped; pass += 1) {
      let after = '';
      let passConflicts = 0;
      for (;;) {
        if (options.maxBatches !== undefined && batches >= options.maxBatches) {
          stopped = true;
          break;
        }
        const batch = await reseal(ctx.db, after, batchSize);
        if (batch.lastId === null) break;
        batches += 1;
        resealed += batch.resealed;
        passConflicts += batch.conflicts;
        after = batch.lastId;
      }
      conflicts += passConflicts;
      if (passConflicts === 0) break;
    }
  }
  // Then the few secret settings, each a compare-and-swap (after the tables: a batch that fails
  // leaves everything as it was).
  resealed += await resealSettings(ctx.db);
  return { ...(await checkDataKeyRotation(ctx)), resealed, batches, conflicts, stopped };
}
