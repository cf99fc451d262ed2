import type { AppContext } from '../../context.js';
import { recordAudit } from '../audit/service.js';
import type { Db } from '../../db/connection.js';
import { purgeExpired } from './adapter.js';
import { queuePlatformLogouts } from './backchannel.js';
import { describeKeys, loadSigningKeys, rotateSigningKeys } from './keys.js';
import { deleteAllArtefactsOfAccount } from './repository.js';

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
