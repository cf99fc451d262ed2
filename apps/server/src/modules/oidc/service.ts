import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { recordAudit } from '../audit/service.js';
import type { Db } from '../../db/connection.js';
import { purgeExpired } from './adapter.js';
import { queuePlatformLogouts } from './backchannel.js';
import { describeKeys, loadSigningKeys, rotateSigningKeys } from './keys.js';
import {
  deleteAllArtefactsOfAccount,
  deleteGrantAndArtefacts,
  findArtefactEntriesOfAccount,
  sealClearArtefacts as sealClearRows,
  setArtefactPayload,
} from './repository.js';

/** The provider's signing keys as an admin sees them (ids only); the first one signs. */
export async function signingKeyList(ctx: AppContext) {
  return { keys: describeKeys(await loadSigningKeys(ctx.db, ctx.clock.now())) };
}

/** One audited step of a signing-key rotation (docs/oidc.md); the nodes restart after it. */
export async function rotateKeys(
  ctx: AppContext,
  step: 'stage' | 'promote' | 'retire',
  actor: { userId: string | null; ip: string | null },
) {
  const keys = await rotateSigningKeys(ctx.db, step, ctx.clock.now());
  await recordAudit(ctx.db, ctx.clock, {
    action: 'oidc_keys_rotated',
    actorId: actor.userId,
    ip: actor.ip,
    details: { step, kids: keys.map((k) => k.kid) },
  });
  return { keys: describeKeys(keys) };
}

/** Expired codes, tokens and sessions are invisible already; this keeps the table small. */
export function purgeExpiredArtefacts(ctx: AppContext): Promise<number> {
  return purgeExpired(ctx.db);
}

/**
 * Ends what every platform holds for an account: grants, access and refresh tokens, codes and
 * provider sessions. A platform's next token call or userinfo request then fails, and the
 * platforms that take back-channel logout notices are told at once. In the caller's transaction.
 */
export async function endPlatformAccess(
  ctx: Pick<AppContext, 'clock'>,
  trx: Db,
  accountId: string,
): Promise<void> {
  await queuePlatformLogouts(ctx, trx, accountId);
  await deleteAllArtefactsOfAccount(trx, accountId);
}

/** What this module reads of stored grants and provider sessions (the rest is kept as it is). */
const storedGrant = z.object({ jti: z.string(), clientId: z.string() });
const storedSession = z.looseObject({
  authorizations: z.record(z.string(), z.unknown()).optional(),
});

/**
 * Ends what one platform holds for an account (the person's "remove access"): its grants with
 * their codes and tokens, and its place in the provider sessions — the platform is told by a
 * back-channel logout notice if it takes them, and must ask for consent again. The other
 * platforms keep theirs. In the caller's transaction; false when the platform held no grant.
 */
export async function endPlatformAccessOfClient(
  ctx: Pick<AppContext, 'clock'>,
  trx: Db,
  accountId: string,
  clientId: string,
): Promise<boolean> {
  const grants = (await findArtefactEntriesOfAccount(trx, accountId, 'Grant')).flatMap((row) => {
    const parsed = storedGrant.safeParse(JSON.parse(row.payload));
    return parsed.success && parsed.data.clientId === clientId
      ? [{ key: row.id, grantId: parsed.data.jti }]
      : [];
  });
  let ended = false;
  for (const grant of grants) {
    const deleted = await deleteGrantAndArtefacts(trx, grant.key, grant.grantId);
    ended ||= deleted;
  }
  // A concurrent removal deleted them first: it tells the platform, once.
  if (!ended) return false;
  await queuePlatformLogouts(ctx, trx, accountId, clientId);
  for (const row of await findArtefactEntriesOfAccount(trx, accountId, 'Session')) {
    const parsed = storedSession.safeParse(JSON.parse(row.payload));
    const authorizations = parsed.success ? parsed.data.authorizations : undefined;
    if (!parsed.success || !authorizations || !(clientId in authorizations)) continue;
    const { [clientId]: _ended, ...others } = authorizations;
    await setArtefactPayload(
      trx,
      row.id,
      JSON.stringify({ ...parsed.data, authorizations: others }),
    );
  }
  return true;
}

/**
 * Seals the artefacts an upgraded installation stored in clear (start-up): their rows move under
 * the hashed key, content unchanged, so tokens and sessions issued before the upgrade keep working.
 */
export function sealClearArtefacts(db: Db): Promise<number> {
  return sealClearRows(db);
}

// Data-key rotation (`npm run data:rotate-key`) re-seals the artefacts' payloads too.
export { resealArtefactBatch, sealedArtefactsCensus } from './repository.js';
