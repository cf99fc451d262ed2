import { describe, expect, it } from 'vitest';
import { INS_OIDS, isValidInsOid } from './oid.js';

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
