import type { Db } from '../../db/connection.js';
import type { UserRow } from '../../db/schema.js';

// The largest character that sorts after any search key: `[q, q + END)` is a prefix range.
const END = '\uffff';
const PROFESSIONAL_ID_TYPES = ['RPPS', 'ADELI', 'FINESS', 'SIRET', 'SIREN', 'DRASS'];

export interface UserSearch {
  /** Normalised search key (lower case, no accents): a prefix of the e-mail or the name. */
  term: string;
  /** The query without spaces: an INS or a professional identifier, matched exactly. */
  compact: string;
  /** The query as an E.164 phone number, when it looks like one. */
  phone: string | null;
  status: UserRow['status'] | undefined;
  limit: number;
  offset: number;
}

/**
 * The admin search, newest accounts first. Every branch is an index range or equality: email,
 * search_name, ins, (type, id), phone (search-plan.test.ts checks the plans).
 */
export function searchUsers(db: Db, search: UserSearch) {
  const { term, compact, phone, status } = search;
  return db
    .selectFrom('users')
    .select([
      'id',
      'email',
      'first_name',
      'last_name',
      'profile',
      'status',
      'ins',
      'professional_id',
      'created_at',
    ])
    .$if(term !== '', (qb) =>
      qb.where((eb) =>
        eb.or([
          eb.and([eb('email', '>=', term), eb('email', '<', term + END)]),
          eb.and([eb('search_name', '>=', term), eb('search_name', '<', term + END)]),
          eb('ins', '=', compact.toUpperCase()),
          eb.and([
            eb('professional_id_type', 'in', PROFESSIONAL_ID_TYPES),
            eb('professional_id', '=', compact),
          ]),
          ...(phone ? [eb('phone', '=', phone)] : []),
        ]),
      ),
    )
    .$if(status !== undefined, (qb) => qb.where('status', '=', status ?? 'active'))
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(search.limit)
    .offset(search.offset)
    .execute();
}

export async function activateUser(db: Db, userId: string, now: number): Promise<void> {
  await db
    .updateTable('users')
    .set({ status: 'active', updated_at: now })
    .where('id', '=', userId)
    .execute();
}

export async function deleteUser(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('users').where('id', '=', userId).execute();
}

/** Clears the account's sign-in failure counter (the unlock starts it afresh). */
export async function clearLoginThrottle(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('throttles').where('key', '=', `login:user:${userId}`).execute();
}
