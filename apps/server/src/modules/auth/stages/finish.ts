import type { CurrentUser, ErrorData } from '@hygie/domain';
import type { AppContext } from '../../../context.js';
import type { Db } from '../../../db/connection.js';
import { together, transaction } from '../../../db/transaction.js';
import type { SessionRow, UserRow } from '../../../db/schema.js';
import { hashToken, randomToken } from '../../../lib/tokens.js';
import { describeUserAgent } from '../../../lib/user-agent.js';
import { recordAudit } from '../../audit/service.js';
import { findSessionById, setSessionStage } from '../../sessions/service.js';
import { COMPLETE, recogniseBrowser } from '../../sessions/service.js';
import { loadSettings } from '../../settings/service.js';
import type { AppSettings } from '../../settings/service.js';
import { queueSecurityNotice } from '../../users/notices.js';
import { presentUser } from '../../users/present.js';
import { findUserById } from '../../users/service.js';
import type { PendingStage, StageActor, StageDefinition } from './registry.js';
import { pendingStage } from './registry.js';

export type Progress =
  | {
      complete: true;
      user: CurrentUser;
      rotatedToken: string | null;
      absoluteExpiresAt: number;
      /** The browser cookie to (re)set when the sign-in completes now. */
      browserToken: string | null;
    }
  | { complete: false; stage: PendingStage; data?: ErrorData<PendingStage> };

/** What moving a session on needs to know of the request. */
export type ProgressContext = Omit<StageActor, 'userId' | 'sessionId'>;

/** A sign-in that just completed: the account, its session, and the request that completed it. */
export interface SignInCompleted {
  user: UserRow;
  session: SessionRow;
  request: ProgressContext;
}

/** What another module does when a sign-in completes, in the completion's transaction. */
export type SignInCompletedHook = (
  ctx: AppContext,
  trx: Db,
  event: SignInCompleted,
) => Promise<void>;

const completedHooks: SignInCompletedHook[] = [];

/**
 * Registers what happens when a sign-in completes (its last stage passed), whatever stage was
 * last: the one place a module acts on a completed sign-in without the stages knowing it (the
 * identity providers link a pending identity there). A module registers once, when loaded.
 */
export function onSignInCompleted(hook: SignInCompletedHook): void {
  if (!completedHooks.includes(hook)) completedHooks.push(hook);
}

/**
 * Recomputes a session's stage after something changed (password checked, stage finished) and
 * stores it. When the last stage passes, the token is rotated (architecture §3) and a sign-in
 * notice with a "not you? lock your account" link is queued, in one transaction.
 */
export async function advanceSession(
  ctx: AppContext,
  sessionId: string,
  userId: string,
  request: ProgressContext,
  options: { rotate: boolean },
): Promise<Progress> {
  // Read together, in one write to the database (db/transaction.ts `together`).
  const [user, session, settings] = await together(ctx.db, (db) =>
    Promise.all([findUserById(db, userId), findSessionById(db, sessionId), loadSettings(ctx, db)]),
  );
  if (!user || !session) throw new Error('session or user vanished during sign-in');
  return transaction(ctx.db, (trx) =>
    settleSession(ctx, trx, { user, session, settings }, request, options),
  );
}

/**
 * advanceSession's writes for a user and session already read, in the caller's transaction: the
 * session moves to the first stage that applies (written only when it changes), or completes —
 * its token rotated when asked, the browser recognised, the notice queued, the completion
 * audited and every completion hook run.
 */
export async function settleSession(
  ctx: AppContext,
  trx: Db,
  read: { user: UserRow; session: SessionRow; settings: AppSettings },
  request: ProgressContext,
  options: { rotate: boolean },
): Promise<Progress> {
  const { user, session, settings } = read;
  const sessionId = session.id;
  const pending = pendingStage(user, session, settings, ctx.clock.now());
  if (pending) {
    if (session.stage !== pending.code) {
      await setSessionStage(trx, sessionId, pending.code);
      // The password's age sends the session to its renewal: said once, when the stage starts.
      if (pending.code === 'password_expired') {
        await recordAudit(trx, ctx.clock, {
          action: 'password_expired',
          actorId: user.id,
          targetId: user.id,
          ip: request.ip,
        });
      }
    }
    const data = pending.data?.(user);
    return { complete: false, stage: pending.code, ...(data ? { data } : {}) };
  }
  const wasComplete = session.stage === COMPLETE;
  const rotatedToken = options.rotate && !wasComplete ? randomToken() : null;
  let browserToken: string | null = null;
  // Sent together, in this order (db/transaction.ts): the session complete, the browser looked up.
  const [, browser] = await Promise.all([
    setSessionStage(trx, sessionId, COMPLETE, rotatedToken ? hashToken(rotatedToken) : undefined),
    wasComplete ? null : recogniseBrowser(ctx, trx, user.id, request.browserToken),
  ]);
  if (browser) {
    await Promise.all([
      // The notice goes for a browser this account has not signed in from before.
      browser.known
        ? undefined
        : queueSecurityNotice(ctx, trx, user, 'sign_in_notice', request, {
            ip: request.ip ?? '?',
            device: describeUserAgent(request.userAgent),
          }),
      recordAudit(trx, ctx.clock, {
        action: 'sign_in_completed',
        actorId: user.id,
        targetId: user.id,
        ip: request.ip,
        details: { newBrowser: !browser.known },
      }),
    ]);
    for (const hook of completedHooks) await hook(ctx, trx, { user, session, request });
    browserToken = browser.token;
  }
  return {
    complete: true,
    user: presentUser(user, {
      idleExpiresAt: session.idle_expires_at,
      absoluteExpiresAt: session.absolute_expires_at,
    }),
    rotatedToken,
    absoluteExpiresAt: session.absolute_expires_at,
    browserToken,
  };
}

/**
 * Finishes a stage of a session: records what the stage declares (one transaction), then moves
 * the session to the next stage that applies — rotating its token when none is left.
 */
export async function finishStage<Input, Outcome>(
  ctx: AppContext,
  actor: StageActor & { sessionId: string },
  stage: StageDefinition<Input, Outcome>,
  input: Input,
): Promise<{ progress: Progress; outcome: Outcome }> {
  const outcome = await transaction(ctx.db, (trx) => stage.complete(ctx, trx, actor, input));
  const progress = await advanceSession(ctx, actor.sessionId, actor.userId, actor, {
    rotate: true,
  });
  return { progress, outcome };
}
