import type { FastifyBaseLogger } from 'fastify';
import { transaction } from './db/transaction.js';
import { checkPassword, normalizeEmail, normalizePassword } from '@hygie/domain';
import type { AppContext } from './context.js';
import { ConfigError } from './config.js';
import { AppError } from './lib/app-error.js';
import { randomToken } from './lib/tokens.js';
import type { DataKey, DataKeyring } from './security/field-crypto.js';
import { open, seal } from './security/field-crypto.js';
import {
  DATA_KEY_CHECK,
  INDEX_KEY_CHECK,
  INDEX_KEY_NEXT,
  indexKeyCheck,
  KEY_CHECK_CONTEXT,
  KEY_CHECK_TEXT,
} from './security/key-checks.js';
import { recordAudit } from './modules/audit/service.js';
import {
  findSettingKeysWithPrefix,
  findSettingValue,
  insertSettingOnce,
} from './modules/settings/service.js';
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

/**
 * The data key ids this database has check values for, i.e. the keys its values were sealed with
 * (none: a new database). Read before any key is generated, so a restored database is never
 * given new keys.
 */
export async function knownDataKeyIds(db: AppContext['db']): Promise<string[]> {
  const keys = await findSettingKeysWithPrefix(db, DATA_KEY_CHECK);
  return keys.map((key) => key.slice(DATA_KEY_CHECK.length));
}

/**
 * Proves the keys are this database's before anything is sealed or opened with them: each data
 * key seals a known text into `internal.data-key-check.<id>` the first time it is seen, and must
 * open it at every later start; a database that knows data keys must be given at least one of
 * them (a restore without its keys is refused before anything is written). The index key's HMAC
 * of a known text is compared likewise, with the key the indexes are built with: the active one,
 * or during an index-key rebuild a former one (`rebuildingIndex`). A wrong key stops the start
 * with one line naming the variable — it never returns garbage.
 */
export async function checkDataKeys(
  db: AppContext['db'],
  keyring: DataKeyring,
  now: number,
): Promise<{ rebuildingIndex: boolean }> {
  const known = await knownDataKeyIds(db);
  if (known.length > 0 && !keyring.keys.some((key) => known.includes(key.id))) {
    throw new ConfigError(
      `Invalid configuration: DATA_ENCRYPTION_KEY holds none of the keys this database's values are sealed with (${known.map((id) => `"${id}"`).join(', ')}): restore the keys backed up with it (docs/deployment.md, Backup and restore)`,
    );
  }
  // The keys the database knows are proved first, so a refused start writes nothing.
  for (const key of keyring.keys.filter((k) => known.includes(k.id))) {
    await proveDataKey(db, key, now);
  }
  const stored = await insertSettingOnce(db, {
    key: INDEX_KEY_CHECK,
    value: indexKeyCheck(keyring.index),
    updated_by: null,
    updated_at: now,
  });
  const built = [keyring.index, ...(keyring.formerIndexes ?? [])].findIndex(
    (key) => indexKeyCheck(key) === stored,
  );
  if (built < 0) {
    throw new ConfigError(
      keyring.formerIndexes?.length
        ? 'Invalid configuration: DATA_INDEX_KEY holds none of the keys this database’s INS index was built with (its check value differs from each)'
        : 'Invalid configuration: DATA_INDEX_KEY is not the key this database’s INS index was built with (its check value differs; an index-key change keeps the old key after the new one until data:rotate-key --index ends)',
    );
  }
  await checkIndexKeyChange(db, keyring, built > 0 ? stored : null, now);
  for (const key of keyring.keys.filter((k) => !known.includes(k.id))) {
    await proveDataKey(db, key, now);
  }
  return { rebuildingIndex: built > 0 };
}

/**
 * An index-key change under way is named in the database (`INDEX_KEY_NEXT`) by the first node
 * started with the new key in front (`formerBuilt`: the check value of the former key the indexes
 * are still under). Every node must then have that same key in front: one restarted with the old
 * key alone would write indexes the others cannot compare, and one with another new key would
 * start a second change over the first.
 */
async function checkIndexKeyChange(
  db: AppContext['db'],
  keyring: DataKeyring,
  formerBuilt: string | null,
  now: number,
): Promise<void> {
  const ours = indexKeyCheck(keyring.index);
  if (formerBuilt !== null) {
    const next = await insertSettingOnce(db, {
      key: INDEX_KEY_NEXT,
      value: ours,
      updated_by: null,
      updated_at: now,
    });
    if (next !== ours) {
      throw new ConfigError(
        'Invalid configuration: DATA_INDEX_KEY: its first key is not the new index key the other nodes are moving to (an index-key change is under way: see docs/deployment.md)',
      );
    }
    return;
  }
  const next = await findSettingValue(db, INDEX_KEY_NEXT);
  if (next !== undefined && next !== ours) {
    throw new ConfigError(
      'Invalid configuration: DATA_INDEX_KEY: an index-key change is under way: put the new key first and this one after it until data:rotate-key --index ends (docs/deployment.md)',
    );
  }
}

/** Seals the check value of a key seen for the first time, and proves the key opens it. */
async function proveDataKey(db: AppContext['db'], key: DataKey, now: number): Promise<void> {
  const only: DataKeyring = { keys: [key], index: Buffer.alloc(0) };
  const stored: unknown = JSON.parse(
    await insertSettingOnce(db, {
      key: `${DATA_KEY_CHECK}${key.id}`,
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
    await transaction(ctx.db, async (trx) => {
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
