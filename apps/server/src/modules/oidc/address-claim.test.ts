import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedPlatform } from '@hygie/domain';
import { DIALECTS, signIn, TestClient } from '../../test/helpers.js';
import type { ListeningApp, Browser } from './test-support.js';
import { addressClaim, claimsOf } from './claims.js';
import {
  authorizationRequest,
  authorizeTo,
  listeningTestApp,
  registerPlatform,
  relyingParty,
  signedInBrowser,
} from './test-support.js';

// The profile's postal address as the OpenID `address` claim (Core §5.1.1), under the `address`
// scope only; the profile's self-declared gender is never released (docs/oidc.md).

const STORED = {
  address_line1: '12 rue de la Paix',
  address_line2: 'Bât. B',
  address_postal_code: '75002',
  address_city: 'Paris',
  address_country: 'FR',
};

describe('the address claim', () => {
  it('gives the street with its complement, the postal code, the city and the country code', () => {
    expect(addressClaim(STORED)).toEqual({
      formatted: '12 rue de la Paix\nBât. B\n75002 Paris',
      street_address: '12 rue de la Paix\nBât. B',
      postal_code: '75002',
      locality: 'Paris',
      country: 'FR',
    });
  });

  it('names the country on the label when it is not France, and skips a missing complement', () => {
    expect(
      addressClaim({
        ...STORED,
        address_line2: null,
        address_postal_code: 'SW1A 1AA',
        address_city: 'London',
        address_country: 'GB',
      }),
    ).toEqual({
      formatted: '12 rue de la Paix\nSW1A 1AA London\nGB',
      street_address: '12 rue de la Paix',
      postal_code: 'SW1A 1AA',
      locality: 'London',
      country: 'GB',
    });
  });

  it('is absent without an address', () => {
    const none = {
      address_line1: null,
      address_line2: null,
      address_postal_code: null,
      address_city: null,
      address_country: null,
    };
    expect(addressClaim(none)).toBeUndefined();
    expect(
      claimsOf({
        id: 'u1',
        email: 'a@b.fr',
        email_verified_at: null,
        phone: null,
        phone_verified_at: null,
        first_name: null,
        last_name: null,
        birth_date: null,
        sex: null,
        profile: 'patient',
        ins: null,
        ins_oid: null,
        professional_id: null,
        professional_id_type: null,
        ...none,
      }),
    ).not.toHaveProperty('address');
  });
});

describe.each(DIALECTS)('the address scope on %s', (dialect) => {
  let t: ListeningApp;
  let platform: CreatedPlatform;
  let rp: client.Configuration;
  let patient: { browser: Browser; userId: string };
  const callback = 'http://127.0.0.1:9/address/callback';

  beforeAll(async () => {
    t = await listeningTestApp(dialect);
    const admin = new TestClient(t.app);
    await signIn(t, admin);
    platform = await registerPlatform(admin, { name: 'Address', redirectUris: [callback] });
    rp = await relyingParty(t.base, platform);
    patient = await signedInBrowser(t, {
      email: 'address@hygie.test',
      password: 'Address-Passw0rd!',
      phone: '+33612345670',
    });
    await t.ctx.db
      .updateTable('users')
      .set({ ...STORED, gender: 'non_binary' })
      .where('id', '=', patient.userId)
      .execute();
  });
  afterAll(() => t.close());

  async function userinfo(scope: string) {
    const start = await authorizationRequest(rp, callback, scope);
    const back = await authorizeTo(patient.browser, t.base, start);
    const tokens = await client.authorizationCodeGrant(rp, back, {
      pkceCodeVerifier: start.verifier,
      expectedState: start.state,
    });
    return client.fetchUserInfo(rp, tokens.access_token, patient.userId);
  }

  it('is published in the discovery document', () => {
    const metadata = rp.serverMetadata();
    expect(metadata.scopes_supported).toContain('address');
    expect(metadata.claims_supported).toContain('address');
  });

  it('releases the address under the address scope only, and the civil-status sex as gender', async () => {
    const withAddress = await userinfo('openid address');
    expect(withAddress).toEqual({ sub: patient.userId, address: addressClaim(STORED) });

    const profile = await userinfo('openid profile');
    expect(profile).not.toHaveProperty('address');
    // `gender` is the civil-status sex (female for this account), not the declared non_binary.
    expect(profile).toMatchObject({ gender: 'female' });
  });
});
