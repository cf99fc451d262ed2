import type { AppContext } from '../../context.js';
import type { Db } from '../../db/connection.js';
import { revokeNativeKeys } from '../biometrics/service.js';
import { voidCodesOfUser } from '../codes/service.js';
import { voidLinksOfUser } from '../links/service.js';
import { endPlatformAccess } from '../oidc/service.js';
import { revokeAccess } from '../users/service.js';

/** Links that let their holder into the account (a "not you? lock it" link only closes it). */
const ACCESS_LINKS = ['first_login', 'password_reset'] as const;

/**
 * Recovery ends everything (a password reset, an account lock): whoever held the account — a
 * stolen session, a trusted browser, an enrolled native key, a platform's tokens, a code or a
 * link in flight — holds nothing afterwards. The owner's "lock my account" links stay usable:
 * they grant nothing, and an intruder who reset the password must not be able to silence them.
 * In the caller's transaction.
 */
export async function endAllAccess(
  ctx: Pick<AppContext, 'clock'>,
  trx: Db,
  userId: string,
): Promise<void> {
  await revokeAccess(trx, userId);
  await revokeNativeKeys(ctx, trx, userId);
  await endPlatformAccess(ctx, trx, userId);
  await voidCodesOfUser(ctx, trx, userId);
  await voidLinksOfUser(ctx, trx, userId, ACCESS_LINKS);
}

/**
 * A password change by the signed-in owner: the other sessions and the trusted browsers end, and
 * so does any password reset in flight (its code or link would undo the change).
 */
export async function endOtherAccess(
  ctx: Pick<AppContext, 'clock'>,
  trx: Db,
  userId: string,
  keptSessionId: string,
): Promise<void> {
  await revokeAccess(trx, userId, keptSessionId);
  await voidCodesOfUser(ctx, trx, userId, ['reset_email', 'reset_sms']);
  await voidLinksOfUser(ctx, trx, userId, ['password_reset']);
}
