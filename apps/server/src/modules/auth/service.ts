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
import { together, transaction } from '../../db/transaction.js';
import type { UserRow } from '../../db/schema.js';
import { AppError, isAppError } from '../../lib/app-error.js';
import { Metrics } from '../../lib/metrics.js';
import type { Admission } from '../../security/passwords.js';
import { recordAudit } from '../audit/service.js';
import { markDeviceUsed, presentedDevice, trustedDeviceOf } from '../devices/service.js';
import { loadSettings } from '../settings/service.js';
import type { AppSettings } from '../settings/service.js';
import type { LoginAttempt } from '../throttle/service.js';
import { accountSubject, signInClient, Throttle } from '../throttle/service.js';
import {
  assertMaySignIn,
  findUserByEmail,
  findUserByIns,
  findUserByProfessionalId,
  findUserById,
  findUserForUpdate,
  findUsersByVerifiedPhone,
  lockUserVersion,
  updatePasswordHash,
} from '../users/service.js';
import type { SessionMeta, SessionProof } from '../sessions/service.js';
import { closeSession, openSession } from '../sessions/service.js';
import type { Progress, ProgressContext } from './stages/finish.js';
import { settleSession } from './stages/finish.js';

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
  admission: Admission,
): Promise<UserRow | undefined> {
  if (accounts.length === 0) {
    await ctx.passwords.verify(null, password, admission);
    return undefined;
  }
  for (const account of accounts) {
    if (await ctx.passwords.verify(account.password_hash, password, admission)) return account;
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
async function recordSignInFailure(
  ctx: AppContext,
  err: unknown,
  targetId: string | null,
  ip: string | null,
  details?: { method: 'biometric' | 'identity_provider' },
): Promise<void> {
  await auditSignInFailure(ctx, ctx.db, err, targetId, ip, details);
}

/** recordSignInFailure in the caller's transaction. */
async function auditSignInFailure(
  ctx: AppContext,
  db: Db,
  err: unknown,
  targetId: string | null,
  ip: string | null,
  details?: { method: 'biometric' | 'identity_provider' },
): Promise<void> {
  const reason = signInFailureReason(err);
  if (!reason) return;
  await recordAudit(db, ctx.clock, {
    action: 'login_failed',
    targetId,
    ip,
    details: { reason, ...details },
  });
}

/**
 * The password step, begun in its client's turn (HashPool.admit: a storm of sign-ins does its
 * reads at the pace of its hashes, each address in turn). Before the hash: the account(s) the
 * name names, the trusted browser and the settings (together, in one write), the throttle's
 * counters (one statement) and the attempt's reservation, decided before the hash starts and
 * committed beside it. After it, every write of the outcome — the throttle's, the rehash, the session, its stage, the audit events —
 * in one transaction: a sign-in that cannot be written leaves nothing of itself (and its reserved
 * attempt is given back).
 */
async function checkPassword(
  ctx: AppContext,
  input: LoginInput,
  meta: SessionMeta & ProgressContext,
  deviceToken: string | undefined,
  previousToken?: string,
): Promise<LoginResult> {
  const admission = await ctx.passwords.admit();
  try {
    return await admittedPasswordStep(ctx, admission, input, meta, deviceToken, previousToken);
  } finally {
    admission.release();
  }
}

async function admittedPasswordStep(
  ctx: AppContext,
  admission: Admission,
  input: LoginInput,
  meta: SessionMeta & ProgressContext,
  deviceToken: string | undefined,
  previousToken?: string,
): Promise<LoginResult> {
  // The browser a trust cookie names, then the settings a session opens with, are read beside
  // the account, in one write to the database (`together`); the browser is matched to the account
  // once both are answered, the settings awaited only after the hash (a refusal reads them for
  // nothing): the transaction after the hash then sends its writes with its first statement.
  const { accounts, device, settingsRead } = await together(ctx.db, async (db) => {
    const read = Promise.all([
      findSignInAccounts(db, input.username),
      presentedDevice(ctx, deviceToken, db),
    ]);
    const settingsRead = loadSettings(ctx, db);
    settingsRead.catch(() => undefined); // its failure is handled where a right password awaits it
    const [accounts, device] = await read;
    return { accounts, device, settingsRead };
  });
  const shared = accounts.length > 1;
  // A shared number's failures are counted under the number typed, never against one account.
  const account = shared ? undefined : accounts[0];
  // The account the attempt names, when it names one: the target of a failure's audit event.
  const target = account?.id ?? null;
  const subject = subjectOf(account, input.username);
  // The owner's trusted browser is recognised before the password: others' failures never slow it.
  const trustedDeviceId = account ? device.trustedFor(account.id) : null;
  const client = signInClient(meta.ip, trustedDeviceId);
  const throttle = new Throttle(ctx.db, ctx.clock);
  let attempt: LoginAttempt;
  try {
    attempt = await throttle.beginLogin(subject, client, meta.ip);
  } catch (err) {
    await Promise.all([
      recordSignInFailure(ctx, err, target, meta.ip),
      settingsRead.catch(() => {}),
    ]);
    throw err;
  }
  const password = normalizePassword(input.password);
  // What goes wrong past the reservation but is no failure of the password (the hashing queue is
  // full, the database fails to write the sign-in) gives the attempt back; with the database away
  // it stays counted, and the sign-in's own error is the answer.
  const giveBack = async (err: unknown): Promise<never> => {
    await throttle.giveBack(subject, client, attempt).catch(() => undefined);
    throw err;
  };
  // The password is checked while the reservation's commit is on its way (a parallel attempt
  // waits for that commit to reserve its own), and its outcome used only once the reservation is
  // kept: one that could not be written answers as the database's failure, whatever the password.
  const checked = passwordOwner(ctx, accounts, password, admission);
  checked.catch(() => undefined); // its failure is handled below, once the reservation is kept
  // Whatever the outcome, it is given once both have settled: no statement of this sign-in is
  // left running after its answer.
  const bothSettled = () => Promise.allSettled([checked, settingsRead]);
  try {
    await attempt.committed;
  } catch (err) {
    await bothSettled();
    throw err;
  }
  const [outcome] = await bothSettled();
  if (outcome.status === 'rejected') return giveBack(outcome.reason);
  const user = outcome.value;
  // The right password for one of several accounts on a number: ask for an identifier that
  // names one account (nothing counted either way).
  if (user && shared) throw new AppError('phone_shared_by_accounts');
  const refuse = async (refusal: AppError, owner: UserRow | undefined): Promise<never> => {
    // Its writes sent together, in this order (db/transaction.ts).
    await transaction(ctx.db, async (trx) => {
      const counts = new Throttle(trx, ctx.clock);
      await Promise.all([
        // The right password, on an account that may not sign in now: the client is the owner's.
        owner ? counts.succeedLogin(subject, client, attempt) : counts.failLogin(subject),
        !owner && meta.ip ? counts.failIp(meta.ip) : undefined,
        trustedDeviceId ? markDeviceUsed(ctx, trx, trustedDeviceId) : undefined,
        auditSignInFailure(ctx, trx, refusal, target, meta.ip),
      ]);
    });
    throw refusal;
  };
  if (!user) return refuse(new AppError('bad_credentials'), undefined);
  const refusal = statusRefusal(ctx, user);
  if (refusal) return refuse(refusal, user);
  try {
    const rehashed =
      user.password_hash && ctx.passwords.needsRehash(user.password_hash)
        ? await ctx.passwords.hash(password)
        : null;
    const opening: Opening = {
      proof: { amr: ['pwd'], trustedDeviceId },
      event: { action: 'login' },
    };
    /** Everything the sign-in writes, sent together, in this order (db/transaction.ts). */
    const writeSignIn = async (trx: Db, account: UserRow, settings: AppSettings) => {
      const signedIn: UserRow = rehashed ? { ...account, password_hash: rehashed } : account;
      const [, , , started] = await Promise.all([
        new Throttle(trx, ctx.clock).succeedLogin(subject, client, attempt),
        trustedDeviceId ? markDeviceUsed(ctx, trx, trustedDeviceId) : undefined,
        rehashed ? updatePasswordHash(trx, signedIn.id, rehashed, ctx.clock.now()) : undefined,
        startSession(ctx, trx, { user: signedIn, settings }, meta, opening, previousToken),
      ]);
      return started;
    };
    const settings = await settingsRead;
    // Written from the account read before the hash, with the account's version read and held
    // first in the same transaction (one round trip, then `commit`, on PostgreSQL): kept when that
    // version has not moved; rolled back otherwise, and written again from the account as it is.
    const written = await transaction(ctx.db, async (trx) => {
      // Both settled before the transaction ends, so that no write of it is left to run after.
      const [version, writes] = await Promise.allSettled([
        lockUserVersion(trx, user.id),
        writeSignIn(trx, user, settings),
      ]);
      if (version.status === 'rejected') throw version.reason;
      if (version.value !== user.version) throw new ChangedDuringHash();
      if (writes.status === 'rejected') throw writes.reason;
      return writes.value;
    }).catch((err: unknown) => {
      if (err instanceof ChangedDuringHash) return null;
      throw err;
    });
    if (written) return written;
    return await transaction(ctx.db, async (trx) =>
      writeSignIn(trx, await accountAfterHash(ctx, trx, user), settings),
    );
  } catch (err) {
    if (err instanceof ClosedDuringSignIn) return refuse(err.refusal, err.account);
    return giveBack(err);
  }
}

/** The account's row changed while its password was being checked: what was written is undone. */
class ChangedDuringHash extends Error {
  constructor() {
    super('the account changed during the hash');
  }
}

/** The account was locked or disabled while its password was being checked. */
class ClosedDuringSignIn extends Error {
  constructor(
    readonly refusal: AppError,
    readonly account: UserRow,
  ) {
    super(refusal.code);
  }
}

/**
 * The account as it is once the password has been checked, first in the transaction that opens
 * the session, its row held until that transaction ends (security.md: a lock, a reset or a
 * password change ends every session). The hash takes tens of milliseconds, during which an admin
 * may lock the account, or its owner reset the password and end every session: a sign-in that
 * read the account before must not open a session after. Unchanged (the same `version`, which the
 * database raises on every change of the row), the account read before serves. Changed: gone or
 * with another password, the password checked is no longer the account's (`bad_credentials`, the
 * attempt given back); locked or disabled, refused as such. On PostgreSQL a change that comes
 * after this read waits for the transaction, and then ends the session it opened.
 */
async function accountAfterHash(ctx: AppContext, trx: Db, user: UserRow): Promise<UserRow> {
  const version = await lockUserVersion(trx, user.id);
  if (version === user.version) return user;
  const current = version === undefined ? undefined : await findUserById(trx, user.id);
  if (!current || current.password_hash !== user.password_hash) {
    throw new AppError('bad_credentials');
  }
  const refusal = statusRefusal(ctx, current);
  if (refusal) throw new ClosedDuringSignIn(refusal, current);
  return current;
}

/** Why an account whose password was right may not sign in now (locked, disabled, pending), if so. */
function statusRefusal(ctx: AppContext, user: UserRow): AppError | null {
  try {
    assertMaySignIn(user, ctx.config.contactEmail);
    return null;
  } catch (err) {
    if (isAppError(err)) return err;
    throw err;
  }
}

/** How a sign-in proved its account: the session's proof, and the event that records it. */
interface Opening {
  proof: SessionProof;
  event: { action: 'login' | 'login_biometric' | 'login_identity_provider'; details?: object };
}

/** A session at the sign-in's first stage, and its stage moved on, in the caller's transaction. */
async function startSession(
  ctx: AppContext,
  trx: Db,
  read: { user: UserRow; settings: AppSettings },
  meta: SessionMeta & ProgressContext,
  opening: Opening,
  previousToken: string | undefined,
): Promise<LoginResult> {
  const { user, settings } = read;
  const stage = 'two_factor_authentication_required';
  // The session and its event sent together (db/transaction.ts).
  const [session] = await Promise.all([
    openSession(ctx, user.id, stage, meta, opening.proof, { db: trx, settings }),
    recordAudit(trx, ctx.clock, {
      action: opening.event.action,
      actorId: user.id,
      targetId: user.id,
      ip: meta.ip,
      ...(opening.event.details ? { details: { ...opening.event.details } } : {}),
    }),
  ]);
  // The token was just issued: no second rotation if every stage is already passed.
  const progress = await settleSession(ctx, trx, { user, session: session.row, settings }, meta, {
    rotate: false,
  });
  // Rotation: the pre-login session (if any) ends, the new token replaces it.
  if (previousToken) await closeSession(ctx, previousToken, trx);
  return { token: session.token, absoluteExpiresAt: session.absoluteExpiresAt, progress };
}

/** A sign-in proved otherwise than by a password: by a biometric key, or a linked provider. */
export interface ProvenSignIn extends Opening {
  userId: string;
  method: 'biometric' | 'identity_provider';
  /**
   * Marks the key or link used, in the sign-in's transaction: false when it may no longer sign
   * in (revoked or removed since it was checked).
   */
  use(trx: Db, now: number): Promise<boolean>;
}

/** The browser a sign-in comes from: its request, trusted-device cookie and current session. */
export interface SignInAttempt {
  meta: ProgressContext;
  deviceToken: string | undefined;
  /** The session this browser had: replaced by the new one. */
  previousToken: string | undefined;
}

/**
 * A sign-in proved by a key or a provider opens its session like the password's: in one
 * transaction that first reads the account, held until it ends (PostgreSQL's row lock; SQLite's
 * transactions run one at a time), so a lock, a reset or a deletion committed since the key or
 * link was checked leaves no session; the key or link marked used (`use`), the trusted browser,
 * the session, its event, its stage and the session it replaces — all or nothing. Refused for the
 * account's state (locked, disabled, pending): audited as a failed sign-in and thrown. Null when
 * the account, the key or the link is gone (the caller says so in its own terms).
 */
export async function signInProven(
  ctx: AppContext,
  proven: ProvenSignIn,
  attempt: SignInAttempt,
): Promise<LoginResult | null> {
  const { meta } = attempt;
  // Read together, in one write to the database (db/transaction.ts `together`).
  const [trustedDeviceId, settings] = await together(ctx.db, (db) =>
    Promise.all([
      trustedDeviceOf(ctx, proven.userId, attempt.deviceToken, db),
      loadSettings(ctx, db),
    ]),
  );
  try {
    return await transaction(ctx.db, async (trx) => {
      const user = await findUserForUpdate(trx, proven.userId);
      if (!user) return null;
      const refusal = statusRefusal(ctx, user);
      if (refusal) throw new ClosedDuringSignIn(refusal, user);
      if (!(await proven.use(trx, ctx.clock.now()))) return null;
      if (trustedDeviceId) await markDeviceUsed(ctx, trx, trustedDeviceId);
      const opening: Opening = {
        proof: { ...proven.proof, trustedDeviceId },
        event: proven.event,
      };
      return startSession(ctx, trx, { user, settings }, meta, opening, attempt.previousToken);
    });
  } catch (err) {
    if (!(err instanceof ClosedDuringSignIn)) throw err;
    await recordSignInFailure(ctx, err.refusal, err.account.id, meta.ip, {
      method: proven.method,
    });
    throw err.refusal;
  }
}
