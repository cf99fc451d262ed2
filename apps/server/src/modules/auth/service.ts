import type { LoginInput, SignInFailureReason } from '@hygie/domain';
import {
  detectUsernameKind,
  isOneOf,
  SIGN_IN_FAILURE_REASONS,
  isValidEmail,
  normalizeEmail,
  normalizeIns,
  normalizeMobilePhone,
  normalizePassword,
  parseNationalProfessionalId,
} from '@hygie/domain';
import { createHash } from 'node:crypto';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/connection.js';
import type { UserRow } from '../../db/schema.js';
import { AppError, isAppError } from '../../lib/app-error.js';
import { Metrics } from '../../lib/metrics.js';
import { recordAudit } from '../audit/service.js';
import { recognisedDevice } from '../devices/service.js';
import { accountSubject, signInClient, Throttle } from '../throttle/service.js';
import {
  assertMaySignIn,
  findUserByEmail,
  findUserByIns,
  findUserByProfessionalId,
  findUsersByVerifiedPhone,
  updatePasswordHash,
} from '../users/service.js';
import type { SessionMeta } from '../sessions/service.js';
import { closeSession, openSession } from '../sessions/service.js';
import type { Progress, ProgressContext } from './stages/finish.js';
import { advanceSession } from './stages/finish.js';

// What other modules use of sign-in: the stage registry and moving a session on.
export type {
  Progress,
  ProgressContext,
  SignInCompleted,
  SignInCompletedHook,
} from './stages/finish.js';
export { advanceSession, finishStage, onSignInCompleted } from './stages/finish.js';
export type { StageActor } from './stages/registry.js';
export {
  emailVerificationStage,
  passwordCreationStage,
  passwordExpiryStage,
  phoneRequired,
  phoneVerificationStage,
  secondFactorStage,
  termsStage,
} from './stages/registry.js';

/** More accounts than this on one number are not told apart by password (each costs an argon2). */
const MAX_SHARED_PHONE_ACCOUNTS = 5;

/**
 * The accounts a login identifier names: an e-mail, an INS, an RPPS or the national professional
 * id (8 + RPPS, 0 + ADELI) name at most one (unique indexes); a verified mobile number may be
 * shared by a family's accounts, so it may name several.
 */
export async function findSignInAccounts(db: Db, username: string): Promise<UserRow[]> {
  const value = username.trim();
  const one = (user: UserRow | undefined) => (user ? [user] : []);
  const byPhone = (raw: string) => {
    const phone = normalizeMobilePhone(raw);
    return phone ? findUsersByVerifiedPhone(db, phone, MAX_SHARED_PHONE_ACCOUNTS) : [];
  };
  switch (detectUsernameKind(value)) {
    case 'email':
      return isValidEmail(value) ? one(await findUserByEmail(db, normalizeEmail(value))) : [];
    case 'phone':
      return byPhone(value);
    case 'ins':
      return one(await findUserByIns(db, normalizeIns(value)));
    case 'rpps':
      return one(await findUserByProfessionalId(db, 'RPPS', value.replace(/\s+/g, '')));
    case 'national_professional_id': {
      const national = parseNationalProfessionalId(value);
      const found = national
        ? await findUserByProfessionalId(db, national.type, national.value)
        : undefined;
      // 0 + 9 digits is also how a French mobile number looks.
      return found ? [found] : byPhone(value);
    }
    default:
      return [];
  }
}

/**
 * The one account a login identifier names, if it names exactly one: a number shared by several
 * accounts names none (a reset code or a biometric sign-in never picks one of them).
 */
export async function findByUsername(db: Db, username: string): Promise<UserRow | undefined> {
  const accounts = await findSignInAccounts(db, username);
  return accounts.length === 1 ? accounts[0] : undefined;
}

/**
 * The account among `accounts` whose password this is. With none, the same argon2 work is done
 * against no hash (no user enumeration by timing).
 */
async function passwordOwner(
  ctx: AppContext,
  accounts: UserRow[],
  password: string,
): Promise<UserRow | undefined> {
  if (accounts.length === 0) {
    await ctx.passwords.verify(null, password);
    return undefined;
  }
  for (const account of accounts) {
    if (await ctx.passwords.verify(account.password_hash, password)) return account;
  }
  return undefined;
}

/** The throttle key of a sign-in: the account, or the name typed when there is none (same treatment). */
function subjectOf(user: UserRow | undefined, username: string): string {
  if (user) return accountSubject(user.id);
  return `name:${createHash('sha256').update(username.trim().toLowerCase()).digest('hex')}`;
}

export interface LoginResult {
  token: string;
  absoluteExpiresAt: number;
  progress: Progress;
}

/**
 * Password step of sign-in. Unknown accounts and wrong passwords get the same answer after the
 * same argon2 work (no user enumeration); failures are throttled per account and per address.
 */
export async function login(
  ctx: AppContext,
  input: LoginInput,
  meta: SessionMeta & ProgressContext,
  deviceToken: string | undefined,
  previousToken?: string,
): Promise<LoginResult> {
  try {
    const result = await checkPassword(ctx, input, meta, deviceToken, previousToken);
    ctx.metrics.signIns.inc({ outcome: 'ok' });
    return result;
  } catch (err) {
    ctx.metrics.signIns.inc({ outcome: Metrics.outcomeOf(err) });
    throw err;
  }
}

/** The reason a `login_failed` event gives for a refusal, or null when it is no failed sign-in. */
export function signInFailureReason(err: unknown): SignInFailureReason | null {
  if (!isAppError(err)) return null;
  if (err.code === 'too_many_attempts') return 'throttled';
  return isOneOf(SIGN_IN_FAILURE_REASONS, err.code) ? err.code : null;
}

/** Records a refused sign-in with its reason (never the name or password typed). */
export async function recordSignInFailure(
  ctx: AppContext,
  err: unknown,
  targetId: string | null,
  ip: string | null,
  details?: { method: 'biometric' | 'identity_provider' },
): Promise<void> {
  const reason = signInFailureReason(err);
  if (!reason) return;
  await recordAudit(ctx.db, ctx.clock, {
    action: 'login_failed',
    targetId,
    ip,
    details: { reason, ...details },
  });
}

async function checkPassword(
  ctx: AppContext,
  input: LoginInput,
  meta: SessionMeta & ProgressContext,
  deviceToken: string | undefined,
  previousToken?: string,
): Promise<LoginResult> {
  // The account the attempt names, when it names one: the target of a failure's audit event.
  let target: string | null = null;
  try {
    const { user, trustedDeviceId } = await passwordStep(ctx, input, meta, deviceToken, (id) => {
      target = id;
    });
    return await startSession(ctx, user, input, meta, trustedDeviceId, previousToken);
  } catch (err) {
    await recordSignInFailure(ctx, err, target, meta.ip);
    throw err;
  }
}

/** The throttles, the password and the account's status: the signed-in user, or a refusal. */
async function passwordStep(
  ctx: AppContext,
  input: LoginInput,
  meta: SessionMeta,
  deviceToken: string | undefined,
  named: (userId: string) => void,
): Promise<{ user: UserRow; trustedDeviceId: string | null }> {
  const throttle = new Throttle(ctx.db, ctx.clock);
  if (meta.ip) await throttle.check(`ip:${meta.ip}`);
  const accounts = await findSignInAccounts(ctx.db, input.username);
  const shared = accounts.length > 1;
  // A shared number's failures are counted under the number typed, never against one account.
  const account = shared ? undefined : accounts[0];
  if (account) named(account.id);
  const subject = subjectOf(account, input.username);
  // The owner's trusted browser is recognised before the password: others' failures never slow it.
  const trustedDeviceId = account ? await recognisedDevice(ctx, account.id, deviceToken) : null;
  const client = signInClient(meta.ip, trustedDeviceId);
  const attempt = await throttle.beginLogin(subject, client);

  const password = normalizePassword(input.password);
  const user = await passwordOwner(ctx, accounts, password);
  if (user && shared) {
    // The right password for one of them: ask for an identifier that names one account.
    throw new AppError('phone_shared_by_accounts');
  }
  if (!user) {
    await throttle.failLogin(subject);
    if (meta.ip) await throttle.failIp(meta.ip);
    throw new AppError('bad_credentials');
  }
  await throttle.succeedLogin(subject, client, attempt);
  assertMaySignIn(user, ctx.config.contactEmail);
  return { user, trustedDeviceId };
}

async function startSession(
  ctx: AppContext,
  user: UserRow,
  input: LoginInput,
  meta: SessionMeta & ProgressContext,
  trustedDeviceId: string | null,
  previousToken: string | undefined,
): Promise<LoginResult> {
  const password = normalizePassword(input.password);
  const now = ctx.clock.now();
  if (user.password_hash && ctx.passwords.needsRehash(user.password_hash)) {
    await updatePasswordHash(ctx.db, user.id, await ctx.passwords.hash(password), now);
  }
  const session = await openSession(ctx, user.id, 'two_factor_authentication_required', meta, {
    amr: ['pwd'],
    trustedDeviceId,
  });
  await recordAudit(ctx.db, ctx.clock, {
    action: 'login',
    actorId: user.id,
    targetId: user.id,
    ip: meta.ip,
  });
  // The token was just issued: no second rotation if every stage is already passed.
  const progress = await advanceSession(ctx, session.id, user.id, meta, { rotate: false });
  // Rotation: the pre-login session (if any) ends, the new token replaces it.
  if (previousToken) await closeSession(ctx, previousToken);
  return { token: session.token, absoluteExpiresAt: session.absoluteExpiresAt, progress };
}
