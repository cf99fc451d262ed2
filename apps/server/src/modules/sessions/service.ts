import type { FastifyRequest } from 'fastify';
import type { MfaData } from '@hygie/domain';
import { maskEmail, maskPhone } from '@hygie/domain';
import type { Db } from '../../db/connection.js';
import type { SessionRow, UserRow } from '../../db/schema.js';
import type { AppContext } from '../../context.js';
import { loadSettings } from '../settings/service.js';
import type { AppSettings } from '../settings/service.js';
import { AppError } from '../../lib/app-error.js';
import { newId } from '../../lib/ids.js';
import { hashToken, randomToken } from '../../lib/tokens.js';
import type { SessionWithUser, UpstreamSignIn } from './repository.js';
import {
  deleteBrowsersUnseenSince,
  deleteSessionByTokenHash,
  findSessionByTokenHash,
  findUpstreamSignIn,
  insertSession,
  markReauthenticated,
  markSecondFactorRenewed,
  rememberBrowser,
  touchKnownBrowser,
  touchSession,
} from './repository.js';

/** The stage of a session whose sign-in is finished; any other value is a pending code. */
export const COMPLETE = 'complete';

// Writing last_seen on every request would turn the read-only hot path into a write path.
const TOUCH_INTERVAL_MS = 60_000;

export interface SessionMeta {
  ip: string | null;
  userAgent: string | null;
}

/** What a sign-in proved, as its session records it. */
export interface SessionProof {
  /** RFC 8176 references of the methods used so far (`pwd`; `hwk user` for a key). */
  amr: string[];
  trustedDeviceId?: string | null;
  /** Set when the sign-in itself was two factors (a key that verified its user). */
  mfaVerifiedAt?: number | null;
  /** The upstream provider the sign-in went through and its ID token (for its logout). */
  upstream?: UpstreamSignIn | null;
  /** That provider's `acr`, as `<provider>:<acr>` (the session's level follows from it). */
  upstreamAcr?: string | null;
}

/** Opens a session for a user at a stage; returns the token for the cookie (only its hash is stored). */
export async function openSession(
  ctx: AppContext,
  userId: string,
  stage: string,
  meta: SessionMeta,
  proof: SessionProof,
  /** A transaction to insert it in, and the settings already read (the time-outs). */
  within?: {
    db: Db;
    settings: Pick<AppSettings, 'SESSION_ABSOLUTE_TIMEOUT' | 'SESSION_IDLE_TIMEOUT'>;
  },
): Promise<{
  id: string;
  token: string;
  idleExpiresAt: number;
  absoluteExpiresAt: number;
  row: SessionRow;
}> {
  const now = ctx.clock.now();
  const token = randomToken();
  const settings = within?.settings ?? (await loadSettings(ctx));
  const absoluteExpiresAt = now + settings.SESSION_ABSOLUTE_TIMEOUT * 1000;
  const idleExpiresAt = Math.min(now + settings.SESSION_IDLE_TIMEOUT * 1000, absoluteExpiresAt);
  const id = newId();
  const row: SessionRow = {
    id,
    token_hash: hashToken(token),
    user_id: userId,
    stage,
    created_at: now,
    last_seen_at: now,
    idle_expires_at: idleExpiresAt,
    absolute_expires_at: absoluteExpiresAt,
    ip: meta.ip,
    user_agent: meta.userAgent?.slice(0, 512) ?? null,
    mfa_verified_at: proof.mfaVerifiedAt ?? null,
    trusted_device_id: proof.trustedDeviceId ?? null,
    reauthenticated_at: null,
    amr: proof.amr.join(' '),
    upstream_acr: proof.upstreamAcr ?? null,
  };
  await insertSession(within?.db ?? ctx.db, row, proof.upstream ?? null);
  return { id, token, idleExpiresAt, absoluteExpiresAt, row };
}

/** Records on the session that its user just re-entered the password (the step-up). */
export async function recordReauthentication(ctx: AppContext, sessionId: string): Promise<void> {
  await markReauthenticated(ctx.db, sessionId, ctx.clock.now());
}

export async function recordSecondFactorStepUp(ctx: AppContext, sessionId: string): Promise<void> {
  await markSecondFactorRenewed(ctx.db, sessionId, ctx.clock.now());
}

export type { UpstreamSignIn } from './repository.js';

/**
 * The upstream provider this browser's live session was opened through, and its ID token (at any
 * stage of the sign-in); null without a session, for an expired one, or one opened otherwise.
 */
export async function upstreamSignInOf(
  ctx: AppContext,
  token: string | undefined,
): Promise<UpstreamSignIn | null> {
  if (!token) return null;
  const found = await findUpstreamSignIn(ctx.db, hashToken(token));
  const now = ctx.clock.now();
  if (!found || now >= found.idleExpiresAt || now >= found.absoluteExpiresAt) return null;
  return found.upstream;
}

/** Ends the session of this token (in the caller's transaction when `db` is one). */
export async function closeSession(ctx: AppContext, token: string, db: Db = ctx.db): Promise<void> {
  await deleteSessionByTokenHash(db, hashToken(token));
}

declare module 'fastify' {
  interface FastifyRequest {
    sessionLookup: Promise<SessionWithUser | null> | null;
  }
}

/**
 * The request's session, looked up once per request. An expired session is deleted and reported
 * as `session_expired`; an idle one slides forward at most once a minute.
 */
export function currentSession(
  ctx: AppContext,
  request: FastifyRequest,
  token: string | undefined,
): Promise<SessionWithUser | null> {
  request.sessionLookup ??= lookup(ctx, token);
  return request.sessionLookup;
}

async function lookup(ctx: AppContext, token: string | undefined): Promise<SessionWithUser | null> {
  if (!token) return null;
  const tokenHash = hashToken(token);
  const session = await findSessionByTokenHash(ctx.db, tokenHash);
  if (!session) return null;
  const now = ctx.clock.now();
  if (now >= session.idle_expires_at || now >= session.absolute_expires_at) {
    await deleteSessionByTokenHash(ctx.db, tokenHash);
    throw new AppError('session_expired');
  }
  if (now - session.last_seen_at >= TOUCH_INTERVAL_MS) {
    await slide(ctx, session, now);
  }
  return session;
}

/** Moves the idle expiry to now + idle timeout, never past the absolute expiry. */
export async function slide(ctx: AppContext, session: SessionWithUser, now: number): Promise<void> {
  const { SESSION_IDLE_TIMEOUT } = await loadSettings(ctx);
  const idle = Math.min(now + SESSION_IDLE_TIMEOUT * 1000, session.absolute_expires_at);
  await touchSession(ctx.db, session.id, now, idle);
  session.last_seen_at = now;
  session.idle_expires_at = idle;
}

/**
 * The `data` of two_factor_authentication_required: providers and masked hints (spec §3). It lives
 * here because every guarded request of a half-open session answers with it.
 */
export function mfaData(
  user: Pick<
    UserRow,
    'id' | 'email' | 'phone' | 'phone_verified_at' | 'totp_enabled_at' | 'recovery_codes_left'
  >,
): MfaData {
  const sms = user.phone !== null && user.phone_verified_at !== null;
  // The authenticator app first when enrolled: it needs no message and works offline. Recovery
  // codes last, while some are left: a fallback when the others are out of reach.
  const providers: MfaData['two_factor_providers'] = [
    ...(user.totp_enabled_at !== null ? (['totp'] as const) : []),
    'email',
    ...(sms ? (['sms'] as const) : []),
    ...(user.recovery_codes_left > 0 ? (['recovery_code'] as const) : []),
  ];
  return {
    user_identifier: user.id,
    two_factor_providers: providers,
    email_hint: maskEmail(user.email),
    sms_hint: sms && user.phone ? maskPhone(user.phone) : null,
    sms_enabled: sms,
    sms_unavailable: sms ? null : user.phone === null ? 'no_phone' : 'phone_unverified',
  };
}

/** A browser is forgotten after a year without a sign-in (its cookie lives 400 days at most). */
export const KNOWN_BROWSER_MS = 365 * 24 * 60 * 60_000;

/**
 * Recognises the browser a sign-in completes in, by its random cookie (stored hashed, per
 * account): `known` when this account signed in from it before. Returns the token the browser
 * keeps (its own, or a new one when it had none), to set again so the cookie stays alive.
 */
export async function recogniseBrowser(
  ctx: AppContext,
  db: Db,
  userId: string,
  browserToken: string | null,
): Promise<{ known: boolean; token: string }> {
  const now = ctx.clock.now();
  const token = browserToken && BROWSER_TOKEN.test(browserToken) ? browserToken : randomToken();
  const tokenHash = hashToken(token);
  if (await touchKnownBrowser(db, userId, tokenHash, now)) return { known: true, token };
  await rememberBrowser(db, userId, tokenHash, now);
  return { known: false, token };
}

/** What a browser cookie may hold: a token this server issued (base64url, 43 characters). */
const BROWSER_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** Forgets the browsers not seen for a year (the hourly purge). */
export function forgetUnseenBrowsers(db: Db, now: number): Promise<number> {
  return deleteBrowsersUnseenSince(db, now - KNOWN_BROWSER_MS);
}

// What the sign-in stages record on a session, for the auth module (it reaches sessions only here).
export {
  deleteExpiredSessions,
  deleteOtherSessionsOfUser as endOtherSessionsOfUser,
  deleteSessionOfUser as endSessionOfUser,
  deleteSessionsOfUser as endSessionsOfUser,
  findSessionById,
  knownBrowsersOfUser,
  listLiveSessionsOfUser,
  sessionsOfUser,
  markAssuranceRaised,
  markSecondFactorPassed,
  requireSecondFactor,
  setSessionStage,
} from './repository.js';

// `data:rotate-key` re-seals the sessions' upstream ID tokens too (issue 21).
export { resealUpstreamTokenBatch, sealedUpstreamTokenCensus } from './repository.js';
