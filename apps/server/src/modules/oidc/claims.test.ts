import { describe, expect, it } from 'vitest';
import { birthdateClaim, claimsOf } from './claims.js';

const base = {
  id: 'u1',
  email: 'a@b.fr',
  email_verified_at: 1,
  phone: null,
  phone_verified_at: null,
  first_name: 'Jeanne',
  last_name: null,
  birth_date: '1980-05-17',
  sex: 'unknown' as const,
  profile: null,
  ins: '295109912611193',
  ins_oid: '1.2.250.1.213.1.4.8',
  professional_id: '10002909371',
  professional_id_type: 'RPPS',
  address_line1: null,
  address_line2: null,
  address_postal_code: null,
  address_city: null,
  address_country: null,
};

describe('claims', () => {
  it.each([
    ['1980-05-17', '1980-05-17'],
    ['1980-05-00', '1980'],
    ['1980-00-00', '1980'],
    ['0000-00-00', undefined],
    ['17/05/1980', undefined],
    [null, undefined],
  ])('birthdate from %s is %s (an unknown day or month is never invented)', (stored, claim) => {
    expect(birthdateClaim(stored)).toBe(claim);
  });

  it('leaves absent values out and gives health identifiers by profile only', () => {
    expect(claimsOf(base)).toEqual({
      sub: 'u1',
      email: 'a@b.fr',
      email_verified: true,
      given_name: 'Jeanne',
      birthdate: '1980-05-17',
      gender: 'unknown',
    });
    expect(claimsOf({ ...base, profile: 'patient' })).toMatchObject({
      profile_type: 'patient',
      ins: '295109912611193',
      ins_oid: '1.2.250.1.213.1.4.8',
      ins_status: 'provisional',
    });
    expect(claimsOf({ ...base, profile: 'patient', ins: null })).not.toHaveProperty('ins_status');
    expect(claimsOf({ ...base, profile: 'patient' })).not.toHaveProperty('professional_id');
    expect(claimsOf({ ...base, profile: 'professional' })).toMatchObject({
      profile_type: 'professional',
      professional_id: '10002909371',
      professional_id_type: 'RPPS',
    });
    expect(claimsOf({ ...base, profile: 'professional' })).not.toHaveProperty('ins');
    expect(claimsOf({ ...base, profile: 'professional' })).not.toHaveProperty('ins_status');
  });
});
