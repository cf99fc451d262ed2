import type { cguStatusSchema } from '@hygie/domain';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import { AppError } from '../../lib/app-error.js';
import type { Progress, ProgressContext } from '../auth/service.js';
import { finishStage, termsStage } from '../auth/service.js';
import { loadSettings } from '../settings/service.js';
import { findUserById } from '../users/service.js';

type CguStatus = z.infer<typeof cguStatusSchema>;

/** The terms version in force, and the one this user accepted (null when anonymous). */
export async function termsStatus(ctx: AppContext, userId: string | null): Promise<CguStatus> {
  const settings = await loadSettings(ctx);
  const user = userId ? await findUserById(ctx.db, userId) : undefined;
  return {
    version: settings.CGU_VERSION,
    publishedAt: settings.CGU_PUBLISHED_AT,
    acceptedVersion: user?.cgu_version ?? null,
  };
}

/** Accepts the terms version in force (who, which version, when is kept) and moves the session on. */
export async function acceptTerms(
  ctx: AppContext,
  session: { id: string; userId: string },
  version: string,
  request: ProgressContext,
): Promise<Progress> {
  const settings = await loadSettings(ctx);
  if (version !== settings.CGU_VERSION) {
    // The page showed an older version than the one in force: show the new one.
    throw new AppError('validation_error', {
      fields: [{ path: 'version', message: 'cgu_must_be_accepted' }],
    });
  }
  const { progress } = await finishStage(
    ctx,
    { ...request, userId: session.userId, sessionId: session.id },
    termsStage,
    { version: settings.CGU_VERSION },
  );
  return progress;
}
