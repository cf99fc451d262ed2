import type { Db } from '../../db/connection.js';
import { kept } from '../../db/connection.js';
import type { Slots } from '../../db/precompiled.js';
import { precompiled } from '../../db/precompiled.js';
import type { LinkTokenTable } from '../../db/schema.js';

/** A link's token, written as its message is queued (compiled once per database: `precompiled`). */
export async function insertLinkToken(db: Db, link: LinkTokenTable): Promise<void> {
  await linkTokenInserted.run(db, link);
}

const linkTokenInserted = precompiled((db: Db, $: Slots<LinkTokenTable>) =>
  kept(
    db.insertInto('link_tokens').values({
      id: $('id'),
      user_id: $('user_id'),
      purpose: $('purpose'),
      token_hash: $('token_hash'),
      created_at: $('created_at'),
      expires_at: $('expires_at'),
      consumed_at: $('consumed_at'),
    } satisfies Record<keyof LinkTokenTable, unknown>),
  ),
);

export function findLinkTokenByHash(db: Db, tokenHash: string) {
  return db
    .selectFrom('link_tokens')
    .select(['id', 'user_id', 'expires_at', 'consumed_at', 'purpose'])
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/** Marks a link used, once: false when it already was (even concurrently). */
export async function consumeLinkToken(db: Db, id: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('link_tokens')
    .set({ consumed_at: now })
    .where('id', '=', id)
    .where('consumed_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Every unused link of a user (of the given purposes, or all) stops working. */
export async function consumeLinksOfUser(
  db: Db,
  userId: string,
  purposes: readonly string[] | undefined,
  now: number,
): Promise<void> {
  await db
    .updateTable('link_tokens')
    .set({ consumed_at: now })
    .where('user_id', '=', userId)
    .$if(purposes !== undefined, (qb) => qb.where('purpose', 'in', purposes ?? []))
    .where('consumed_at', 'is', null)
    .execute();
}

/** Retention: links used or expired before `before` go. */
export async function deleteLinksSettledBefore(db: Db, before: number): Promise<number> {
  const result = await db
    .deleteFrom('link_tokens')
    .where((eb) => eb.or([eb('expires_at', '<', before), eb('consumed_at', '<', before)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Every link row of a user not yet purged, without its token (the data export). */
export function linksOfUser(db: Db, userId: string) {
  return db
    .selectFrom('link_tokens')
    .select(['id', 'purpose', 'created_at', 'expires_at', 'consumed_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .execute();
}
