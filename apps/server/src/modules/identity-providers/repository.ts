import type { Selectable } from 'kysely';
import type { Db } from '../../db/connection.js';
import type { IdentityLinkTable } from '../../db/schema.js';

export type IdentityLinkRow = Selectable<IdentityLinkTable>;

/** The link of a provider's subject, if that subject is linked to an account. */
export function findLink(
  db: Db,
  provider: string,
  subject: string,
): Promise<IdentityLinkRow | undefined> {
  return db
    .selectFrom('identity_links')
    .selectAll()
    .where('provider', '=', provider)
    .where('subject', '=', subject)
    .executeTakeFirst();
}

/** Links a provider's subject to an account (one account per subject: the primary key). */
export async function insertLink(db: Db, row: IdentityLinkRow): Promise<void> {
  await db.insertInto('identity_links').values(row).execute();
}

/** Records a link's use; false when it is gone (removed since it was read): nothing is written. */
export async function markLinkUsed(
  db: Db,
  provider: string,
  subject: string,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('identity_links')
    .set({ last_used_at: now })
    .where('provider', '=', provider)
    .where('subject', '=', subject)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** An account's links, oldest first. */
export function linksOfUser(db: Db, userId: string): Promise<IdentityLinkRow[]> {
  return db
    .selectFrom('identity_links')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('provider')
    .execute();
}

/** Removes an account's link with a provider: the number of links removed (0 or 1). */
export async function deleteLink(db: Db, userId: string, provider: string): Promise<number> {
  const result = await db
    .deleteFrom('identity_links')
    .where('user_id', '=', userId)
    .where('provider', '=', provider)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
