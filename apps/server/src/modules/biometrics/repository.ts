import type { Selectable } from 'kysely';
import type { Db } from '../../db/connection.js';
import type { BiometricChallengeTable, CredentialTable } from '../../db/schema.js';

export type CredentialRow = Selectable<CredentialTable>;
export type CredentialKind = CredentialTable['kind'];
export type ChallengePurpose = BiometricChallengeTable['purpose'];

// ---- credentials (biometric keys) ----

/** A user's passkeys still in use: what a new enrolment excludes and a sign-in allows. */
export function activeWebauthnKeysOfUser(db: Db, userId: string) {
  return db
    .selectFrom('credentials')
    .select(['credential_id', 'transports'])
    .where('user_id', '=', userId)
    .where('kind', '=', 'webauthn')
    .where('revoked_at', 'is', null)
    .execute();
}

export async function insertCredential(db: Db, row: CredentialRow): Promise<void> {
  await db.insertInto('credentials').values(row).execute();
}

/** A key by the id its carrier gives it (revoked keys included: the caller tells them apart). */
export function findCredential(
  db: Db,
  kind: CredentialKind,
  credentialId: string,
): Promise<CredentialRow | undefined> {
  return db
    .selectFrom('credentials')
    .selectAll()
    .where('kind', '=', kind)
    .where('credential_id', '=', credentialId)
    .executeTakeFirst();
}

export async function setCredentialCounter(db: Db, id: string, counter: number): Promise<void> {
  await db.updateTable('credentials').set({ counter }).where('id', '=', id).execute();
}

/** Records a key's use; false when it is revoked (or gone): then nothing is written. */
export async function markCredentialUsed(db: Db, id: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('credentials')
    .set({ last_used_at: now })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Revokes a user's native key still in use; returns its owner, or undefined when there was none. */
export function revokeNativeKey(db: Db, userId: string, keyId: string, now: number) {
  return db
    .updateTable('credentials')
    .set({ revoked_at: now })
    .where('kind', '=', 'native')
    .where('user_id', '=', userId)
    .where('credential_id', '=', keyId)
    .where('revoked_at', 'is', null)
    .returning(['user_id'])
    .executeTakeFirst();
}

/** A user's keys still in use, newest first. */
export function activeCredentialsOfUser(db: Db, userId: string): Promise<CredentialRow[]> {
  return db
    .selectFrom('credentials')
    .selectAll()
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .orderBy('created_at', 'desc')
    .execute();
}

/** Revokes one of a user's keys still in use; false when it is not theirs or already revoked. */
export async function revokeCredentialOfUser(
  db: Db,
  id: string,
  userId: string,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('credentials')
    .set({ revoked_at: now })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

// ---- challenges ----

export async function insertChallenge(
  db: Db,
  row: Selectable<BiometricChallengeTable>,
): Promise<void> {
  await db.insertInto('biometric_challenges').values(row).execute();
}

/**
 * Marks a challenge used — one conditional UPDATE (unused, unexpired, this purpose and, when given,
 * this user), so of two concurrent uses exactly one succeeds. True when this call consumed it.
 */
export async function consumeChallengeRow(
  db: Db,
  id: string,
  purpose: ChallengePurpose,
  userId: string | null,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('biometric_challenges')
    .set({ consumed_at: now })
    .where('id', '=', id)
    .where('purpose', '=', purpose)
    .where('consumed_at', 'is', null)
    .where('expires_at', '>', now)
    .$if(userId !== null, (qb) => qb.where('user_id', '=', userId ?? ''))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function challengeValue(db: Db, id: string): Promise<string> {
  const row = await db
    .selectFrom('biometric_challenges')
    .select('challenge')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return row.challenge;
}

/** Revokes every native key of a user still in use. */
export async function revokeNativeKeysOfUser(db: Db, userId: string, now: number): Promise<void> {
  await db
    .updateTable('credentials')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('kind', '=', 'native')
    .where('revoked_at', 'is', null)
    .execute();
}

/** Retention: challenges past their expiry go. */
export async function deleteExpiredChallenges(db: Db, now: number): Promise<number> {
  const result = await db
    .deleteFrom('biometric_challenges')
    .where('expires_at', '<', now)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Every key of a user, revoked ones included, by its metadata (never key material). */
export function credentialsOfUser(db: Db, userId: string) {
  return db
    .selectFrom('credentials')
    .select([
      'id',
      'kind',
      'device_name',
      'transports',
      'user_verifying',
      'created_at',
      'last_used_at',
      'revoked_at',
    ])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .execute();
}
