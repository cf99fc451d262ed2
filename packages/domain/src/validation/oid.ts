/** OIDs of the INS authority (domain-rules.md). */
export const INS_OIDS = {
  nir: '1.2.250.1.213.1.4.8',
  nia: '1.2.250.1.213.1.4.9',
  test: '1.2.250.1.213.1.4.10',
  demo: '1.2.250.1.213.1.4.11',
} as const;

export type InsOid = (typeof INS_OIDS)[keyof typeof INS_OIDS];

/** OIDs accepted in production: the test and demo ones must never reach real records. */
const PRODUCTION_OIDS: readonly string[] = [INS_OIDS.nir, INS_OIDS.nia];
const ALL_OIDS: readonly string[] = Object.values(INS_OIDS);

/** True when `oid` is an INS OID; the test and demo OIDs are refused when `production` is true. */
export function isValidInsOid(oid: string, options: { production?: boolean } = {}): boolean {
  return (options.production ? PRODUCTION_OIDS : ALL_OIDS).includes(oid.trim());
}

/**
 * The OID of a typed INS matricule, read from its first digit (domain-rules.md): 1 or 2 is a NIR
 * (INS-NIR); 3, 4, 7 and 8 are a number awaiting a NIR (INS-NIA). Never a test or demo OID: those
 * come only from the INSi test teleservice, which this portal does not call.
 */
export function insOidOf(ins: string): InsOid {
  return /^[12]/.test(ins.trim()) ? INS_OIDS.nir : INS_OIDS.nia;
}
