import type { Db } from '../../db/connection.js';

export function findTrustedDeviceByTokenHash(db: Db, tokenHash: string) {
  return db
    .selectFrom('trusted_devices')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
}

export async function deleteTrustedDevicesOfUser(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('trusted_devices').where('user_id', '=', userId).execute();
}
