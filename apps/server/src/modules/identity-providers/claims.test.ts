import { describe, expect, it } from 'vitest';
import { countsAsTwoFactors, mapClaims } from './claims.js';
import { franceConnectClaims, pscClaims } from './test-support.js';

describe('provider claims', () => {
  it('reads a Pro Santé Connect professional: national id, RPPS, names, professions', () => {
    expect(mapClaims('psc', 'sub-1', { sub: 'sub-1', ...pscClaims('10001234567') })).toEqual({
      subject: 'sub-1',
      givenName: 'Jean',
      familyName: 'Dupont',
      professional: { nationalId: '810001234567', rpps: '10001234567', professions: ['10'] },
      pivot: null,
    });
  });

  it('keeps an ADELI-based national id without an RPPS, and refuses PSC without SubjectNameID', () => {
    const adeli = mapClaims('psc', 's', { SubjectNameID: '0751234567' });
    expect(adeli?.professional).toEqual({ nationalId: '0751234567', rpps: null, professions: [] });
    expect(mapClaims('psc', 's', { given_name: 'Jean' })).toBeNull();
  });

  it("reads FranceConnect's identity pivot", () => {
    expect(mapClaims('franceconnect', 'pairwise', franceConnectClaims())).toEqual({
      subject: 'pairwise',
      givenName: 'Jeanne Marie',
      familyName: 'Martin',
      professional: null,
      pivot: {
        birthDate: '1980-05-17',
        gender: 'female',
        birthPlace: '75056',
        birthCountry: '99100',
        usedFamilyName: 'Martin',
      },
    });
  });

  it('ignores a malformed optional claim rather than refusing the identity', () => {
    const identity = mapClaims('franceconnect', 's', { ...franceConnectClaims(), gender: 'x' });
    expect(identity?.pivot?.gender).toBeNull();
  });

  it.each([
    ['psc', ['eidas1'], 'eidas1', true],
    ['psc', ['eidas1'], 'eidas3', true],
    ['psc', ['eidas2'], 'eidas1', false],
    ['franceconnect', ['eidas1'], 'eidas1', false],
    ['franceconnect', ['eidas2'], 'eidas2', true],
    ['franceconnect', ['eidas2', 'eidas3'], 'eidas3', true],
    ['franceconnect', ['eidas3'], 'eidas2', false],
    ['psc', ['eidas1'], undefined, false],
    ['psc', ['eidas1'], 'urn:other', false],
  ] as const)('%s asking %j: acr %s counts as two factors: %s', (kind, values, acr, expected) => {
    expect(countsAsTwoFactors(kind, values, acr)).toBe(expected);
  });
});
