import type { FastifyRequest } from 'fastify';
import { transaction } from '../../db/transaction.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../lib/app-error.js';
import type { RequireSession } from '../../plugins/authenticate.js';
import type { SessionWithUser } from '../sessions/repository.js';
import { closeSession, currentSession } from '../sessions/service.js';
import { deleteSessionsOfAccount } from './adapter.js';
import { queuePlatformLogouts } from './backchannel.js';

/**
 * The portal session decides who is signed in, for the provider too: a complete session, or null
 * when there is none or its sign-in is still at a stage (requireSession semantics).
 */
export async function completeSession(
  requireSession: RequireSession,
  request: FastifyRequest,
): Promise<SessionWithUser | null> {
  try {
    return await requireSession(request);
  } catch (err) {
    if (err instanceof AppError) return null;
    throw err;
  }
}

/** The user of this browser's portal session at any stage, or null (none, or expired). */
export async function portalUserId(
  ctx: AppContext,
  request: FastifyRequest,
  token: string | undefined,
): Promise<string | null> {
  if (!token) return null;
  try {
    return (await currentSession(ctx, request, token))?.user_id ?? null;
  } catch (err) {
    if (err instanceof AppError) return null; // expired: already gone
    throw err;
  }
}

/**
 * Single sign-out: ends this browser's portal session and every provider session of its user
 * (on all nodes: they are rows), and queues a back-channel logout notice for each platform those
 * sessions signed in that takes them. Returns the user, if a session named one.
 */
export async function endPortalAndProviderSessions(
  ctx: AppContext,
  request: FastifyRequest,
  token: string | undefined,
): Promise<string | null> {
  if (!token) return null;
  const userId = await portalUserId(ctx, request, token);
  await closeSession(ctx, token);
  if (userId) {
    await transaction(ctx.db, async (trx) => {
      await queuePlatformLogouts(ctx, trx, userId);
      await deleteSessionsOfAccount(trx, userId);
    });
  }
  return userId;
}
