import { insOidOf } from '@hygie/domain';
import type { UserTable } from '../../db/schema.js';

/**
 * The INS columns for a typed INS: the matricule and its OID (NIR or NIA, read from the number),
 * written together so a stored INS always has its OID and a removed one leaves none.
 */
export function insColumns(ins: string | null): Pick<UserTable, 'ins' | 'ins_oid'> {
  return { ins, ins_oid: ins === null ? null : insOidOf(ins) };
}
