import { sql, type QueryExecutorProvider } from 'kysely';

// Forward-only. Every stored INS gets its OID, read from the number as the portal now does when
// one is typed (insOidOf in the domain): 1 or 2 first is a NIR, anything else a NIA.
export async function up(db: QueryExecutorProvider): Promise<void> {
  await sql`
    update users
    set ins_oid = case when substr(ins, 1, 1) in ('1', '2')
      then '1.2.250.1.213.1.4.8' else '1.2.250.1.213.1.4.9' end
    where ins is not null and ins_oid is null
  `.execute(db);
}
