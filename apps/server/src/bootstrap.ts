import type { FastifyBaseLogger } from 'fastify';
import { checkPassword, normalizeEmail, normalizePassword } from '@hygie/domain';
import type { AppContext } from './context.js';
import { ConfigError } from './config.js';
import { AppError } from './lib/app-error.js';
import { randomToken } from './lib/tokens.js';
import type { DataKeyring } from './security/field-crypto.js';
import { blindIndex, open, seal } from './security/field-crypto.js';
import { recordAudit } from './modules/audit/service.js';
import { insertSettingOnce } from './modules/settings/service.js';
import { createUser, findUserByEmail } from './modules/users/service.js';

/** The HMAC secret: SESSION_SECRET, else one generated on first start and shared through the database. */
export async function loadSecret(
  db: AppContext['db'],
  configured: string | undefined,
  now: number,
): Promise<string> {
  if (configured) return configured;
  // Every node generates one; the first stored wins and all of them read that one.
  const value = await insertSettingOnce(db, {
    key: 'internal.secret',
    value: JSON.stringify(randomToken(32)),
    updated_by: null,
    updated_at: now,
  });
  const secret: unknown = JSON.parse(value);
  if (typeof secret !== 'string') throw new Error('internal.secret does not hold a string');
  return secret;
}

const KEY_CHECK_CONTEXT = 'hygie:data-key-check';
const KEY_CHECK_TEXT = 'Hygie data key check';

/**
 * Proves the keys are this database's before anything is sealed or opened with them: each data
 * key seals a known text into `internal.data-key-check.<id>` the first time it is seen, and must
 * open it at every later start; the index key's HMAC of a known text is compared likewise. A wrong
 * key stops the start with one line naming the variable — it never returns garbage.
 */
export async function checkDataKeys(db: AppContext['db'], keyring: DataKeyring, now: number) {
  for (const key of keyring.keys) {
    const only: DataKeyring = { keys: [key], index: keyring.index };
    const stored: unknown = JSON.parse(
      await insertSettingOnce(db, {
        key: `internal.data-key-check.${key.id}`,
        value: JSON.stringify(seal(only, KEY_CHECK_CONTEXT, KEY_CHECK_TEXT)),
        updated_by: null,
        updated_at: now,
      }),
    );
    if (!opensCheck(only, stored)) {
      throw new ConfigError(
        `Invalid configuration: DATA_ENCRYPTION_KEY: key "${key.id}" is not the key this database knows by that id (its check value does not open)`,
      );
    }
  }
  const expected = blindIndex(keyring, KEY_CHECK_CONTEXT, KEY_CHECK_TEXT);
  const stored = await insertSettingOnce(db, {
    key: 'internal.data-index-key-check',
    value: JSON.stringify(expected),
    updated_by: null,
    updated_at: now,
  });
  if (stored !== JSON.stringify(expected)) {
    throw new ConfigError(
      'Invalid configuration: DATA_INDEX_KEY is not the key this database’s INS index was built with (its check value differs)',
    );
  }
}

function opensCheck(keyring: DataKeyring, stored: unknown): boolean {
  try {
    return (
      typeof stored === 'string' && open(keyring, KEY_CHECK_CONTEXT, stored) === KEY_CHECK_TEXT
    );
  } catch {
    return false;
  }
}

/**
 * With ADMIN_EMAIL and ADMIN_PASSWORD on first start, creates that admin account (verified e-mail,
 * active). Nothing happens when the account exists: the variables never overwrite a password.
 */
export async function ensureAdmin(ctx: AppContext, log: FastifyBaseLogger): Promise<void> {
  const admin = ctx.config.admin;
  if (!admin) return;
  const email = normalizeEmail(admin.email);
  if (await findUserByEmail(ctx.db, email)) return;
  const password = normalizePassword(admin.password);
  const problems = checkPassword(password, { email });
  if (problems.length > 0) {
    throw new ConfigError(
      `Invalid configuration:\n  ADMIN_PASSWORD is refused by the password rule (${problems.join(', ')})`,
    );
  }
  const hash = await ctx.passwords.hash(password);
  try {
    await ctx.db.transaction().execute(async (trx) => {
      const id = await createUser(ctx, trx, {
        email,
        emailVerified: true,
        passwordHash: hash,
        profile: null,
        status: 'active',
        roles: ['admin'],
        language: 'fr',
      });
      await recordAudit(trx, ctx.clock, { action: 'admin_bootstrapped', targetId: id });
    });
  } catch (err) {
    // Another node starting at the same time created it first.
    if (err instanceof AppError && err.code === 'email_already_used') return;
    throw err;
  }
  log.info({ email }, 'admin account created from ADMIN_EMAIL');
}
