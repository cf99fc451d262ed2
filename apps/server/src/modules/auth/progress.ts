import type { Brand, CurrentUser, Language } from '@hygie/domain';
import type { AppContext } from '../../context.js';
import type { UserRow } from '../../db/schema.js';
import { hashToken, randomToken } from '../../lib/tokens.js';
import { enqueueMessage } from '../../messaging/outbox.js';
import { recordAudit } from '../audit/service.js';
import { issueLink } from '../links/service.js';
import { loadSettings } from '../settings/service.js';
import { COMPLETE } from '../sessions/service.js';
import { findUserById } from '../users/repository.js';
import { presentUser } from '../users/present.js';
import type { PendingStage } from './stages.js';
import { mfaData, nextStage } from './stages.js';

export type Progress =
  | { complete: true; user: CurrentUser; rotatedToken: string | null; absoluteExpiresAt: number }
  | { complete: false; stage: PendingStage; data?: Record<string, unknown> };

export interface ProgressContext {
  ip: string | null;
  userAgent: string | null;
  language: Language;
  brand: Brand;
}

/**
 * Recomputes a session's stage after something changed (password checked, code verified, terms
 * accepted …) and stores it. When the last stage passes, the token is rotated (architecture §3)
 * and a sign-in notice with a "not you? lock your account" link is queued, in one transaction.
 */
export async function progressSession(
  ctx: AppContext,
  sessionId: string,
  userId: string,
  request: ProgressContext,
  options: { rotate: boolean },
): Promise<Progress> {
  const now = ctx.clock.now();
  const [user, session, settings] = await Promise.all([
    findUserById(ctx.db, userId),
    ctx.db.selectFrom('sessions').selectAll().where('id', '=', sessionId).executeTakeFirst(),
    loadSettings(ctx),
  ]);
  if (!user || !session) throw new Error('session or user vanished during sign-in');
  const stage = nextStage(user, session, settings, now);
  if (stage !== COMPLETE) {
    await ctx.db.updateTable('sessions').set({ stage }).where('id', '=', sessionId).execute();
    return {
      complete: false,
      stage,
      ...(stage === 'two_factor_authentication_required' ? { data: mfaData(user) } : {}),
    };
  }
  const wasComplete = session.stage === COMPLETE;
  const rotatedToken = options.rotate && !wasComplete ? randomToken() : null;
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('sessions')
      .set({ stage: COMPLETE, ...(rotatedToken ? { token_hash: hashToken(rotatedToken) } : {}) })
      .where('id', '=', sessionId)
      .execute();
    if (!wasComplete) {
      const lockToken = await issueLink(ctx, trx, user.id, 'lock_account');
      const lockUrl = new URL('/security/lock-account', ctx.config.publicUrl);
      lockUrl.searchParams.set('email', user.email);
      lockUrl.searchParams.set('code', lockToken);
      await enqueueMessage(trx, ctx.clock, {
        channel: 'email',
        recipient: user.email,
        template: 'sign_in_notice',
        language: request.language,
        brand: request.brand,
        params: {
          date: new Date(now).toISOString().replace('T', ' ').slice(0, 16) + ' UTC',
          ip: request.ip ?? '?',
          device: describeUserAgent(request.userAgent),
          lockUrl: lockUrl.href,
        },
      });
      await recordAudit(trx, ctx.clock, {
        action: 'sign_in_completed',
        actorId: user.id,
        targetId: user.id,
        ip: request.ip,
      });
    }
  });
  return {
    complete: true,
    user: presentUser(user as UserRow, {
      idleExpiresAt: session.idle_expires_at,
      absoluteExpiresAt: session.absolute_expires_at,
    }),
    rotatedToken,
    absoluteExpiresAt: session.absolute_expires_at,
  };
}

/** A short, readable device description for notices ("Chrome on Windows"). */
export function describeUserAgent(ua: string | null): string {
  if (!ua) return '?';
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /Firefox\//.test(ua)
      ? 'Firefox'
      : /Chrome\/|Chromium\//.test(ua)
        ? 'Chrome'
        : /Safari\//.test(ua)
          ? 'Safari'
          : 'Browser';
  const os = /Android/.test(ua)
    ? 'Android'
    : /iPhone|iPad|iPod/.test(ua)
      ? 'iOS'
      : /Windows/.test(ua)
        ? 'Windows'
        : /Mac OS X|Macintosh/.test(ua)
          ? 'macOS'
          : /Linux/.test(ua)
            ? 'Linux'
            : '?';
  return `${browser} / ${os}`;
}
