import type { Db } from '../../db/connection.js';
import type { AuditEventTable } from '../../db/schema.js';

export async function insertAuditEvent(db: Db, event: AuditEventTable): Promise<void> {
  await db.insertInto('audit_events').values(event).execute();
}
