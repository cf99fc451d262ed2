import { describe, expect, it } from 'vitest';
import { isValidIns } from './ins.js';
import { INS_OIDS, insOidOf, isValidInsOid } from './oid.js';

describe('isValidInsOid', () => {
  it.each([
    ['1.2.250.1.213.1.4.8', 'INS-NIR'],
    ['1.2.250.1.213.1.4.9', 'INS-NIA'],
    ['1.2.250.1.213.1.4.10', 'INS-NIR test'],
    ['1.2.250.1.213.1.4.11', 'INS-NIR demo'],
  ])('accepts %s (%s) outside production', (oid) => {
    expect(isValidInsOid(oid)).toBe(true);
    expect(isValidInsOid(oid, { production: false })).toBe(true);
  });

  it.each(['1.2.250.1.213.1.4.8', '1.2.250.1.213.1.4.9'])('accepts %s in production', (oid) => {
    expect(isValidInsOid(oid, { production: true })).toBe(true);
  });

  it.each(['1.2.250.1.213.1.4.10', '1.2.250.1.213.1.4.11'])(
    'refuses the test or demo OID %s in production',
    (oid) => {
      expect(isValidInsOid(oid, { production: true })).toBe(false);
    },
  );

  it.each([
    '',
    '1.2.250.1.213.1.4',
    '1.2.250.1.213.1.4.12',
    '1.2.250.1.213.1.4.80',
    '1.2.250.1.213.1.4.8.1',
    '1.2.250.1.213.1.4.8x',
    '2.16.840.1.113883',
  ])('refuses %j', (oid) => {
    expect(isValidInsOid(oid)).toBe(false);
  });

  it('ignores surrounding whitespace', () => {
    expect(isValidInsOid(` ${INS_OIDS.nir} `)).toBe(true);
  });
});

describe('insOidOf', () => {
  it.each(['295109912611193', '185057800608491', '253072B07300470', '170012000401235'])(
    'reads the NIR %s as INS-NIR',
    (ins) => {
      expect(isValidIns(ins)).toBe(true);
      expect(insOidOf(ins)).toBe(INS_OIDS.nir);
    },
  );

  it.each(['785039912345663', '892017512300459', '385017512300470', '485017512300420'])(
    'reads the number awaiting a NIR %s as INS-NIA',
    (ins) => {
      expect(isValidIns(ins)).toBe(true);
      expect(insOidOf(ins)).toBe(INS_OIDS.nia);
    },
  );

  it('never gives an OID refused in production', () => {
    for (const first of '12345678') {
      expect(isValidInsOid(insOidOf(`${first}85057800608491`), { production: true })).toBe(true);
    }
  });
});
