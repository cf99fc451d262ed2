import { describe, expect, it } from 'vitest';
import {
  ACR,
  ACR_VALUES_SUPPORTED,
  acrFor,
  amrOf,
  levelNeeded,
  requestedLevel,
} from './assurance.js';

describe('amr of a session (RFC 8176)', () => {
  it.each([
    ['pwd', null, ['pwd']], // a trusted browser skipped the second factor
    ['pwd otp', 1, ['pwd', 'otp', 'mfa']], // code by e-mail
    ['pwd sms', 1, ['pwd', 'sms', 'mfa']], // code by SMS
    ['pwd totp', 1, ['pwd', 'otp', 'mfa']], // the authenticator app: `otp` in the token
    ['pwd otp totp', 1, ['pwd', 'otp', 'mfa']], // e-mail code then the app: once
    ['hwk user', 1, ['hwk', 'user', 'mfa']], // a key that verified its user
    ['hwk', null, ['hwk']], // a key alone
    ['pwd otp otp', 1, ['pwd', 'otp', 'mfa']],
    ['ext mfa', 1, ['ext', 'mfa']], // an upstream provider's two factors
    [null, 1, ['pwd', 'mfa']], // a session from before methods were recorded
    [null, null, ['pwd']],
  ])('%s (second factor at %s) → %j', (amr, mfa, expected) => {
    expect(amrOf({ amr, mfa_verified_at: mfa })).toEqual(expected);
  });
});

describe('the level a platform asks for', () => {
  const essential = (acr: object) => JSON.stringify({ id_token: { acr } });
  it.each([
    [{}, null],
    [{ acr_values: ACR.twoFactors }, 'low'], // the former value: an alias of low
    [{ acr_values: ACR.oneFactor }, 'one_factor'],
    [{ acr_values: ACR.substantial }, 'substantial'],
    [{ acr_values: ACR.high }, 'high'],
    // Any listed value is acceptable: the lowest one known decides.
    [{ acr_values: `${ACR.high} ${ACR.substantial}` }, 'substantial'],
    [{ acr_values: `${ACR.twoFactors} ${ACR.oneFactor}` }, 'one_factor'],
    [{ acr_values: `eidas-high ${ACR.twoFactors}` }, 'low'],
    [{ acr_values: 'eidas-high' }, null], // not a value the portal issues
    [{ claims: essential({ essential: true, value: ACR.twoFactors }) }, 'low'],
    [{ claims: essential({ essential: true, values: [ACR.substantial] }) }, 'substantial'],
    [{ claims: essential({ value: ACR.high }) }, null], // voluntary in claims: a wish
    [{ claims: '{not json' }, null],
    [{ claims: JSON.stringify({ id_token: { acr: 'x' } }) }, null],
  ])('%j → %s', (params, level) => {
    expect(requestedLevel(params)).toBe(level);
  });

  it('needs the higher of the platform’s minimum and the request', () => {
    expect(levelNeeded(null, {})).toBeNull();
    expect(levelNeeded('substantial', {})).toBe('substantial');
    expect(levelNeeded('substantial', { acr_values: ACR.twoFactors })).toBe('substantial');
    expect(levelNeeded('low', { acr_values: ACR.high })).toBe('high');
    expect(levelNeeded(null, { acr_values: ACR.substantial })).toBe('substantial');
  });
});

describe('the acr of the ID token', () => {
  it('advertises one value per level, not the former one', () => {
    expect(ACR_VALUES_SUPPORTED).toEqual([ACR.oneFactor, ACR.low, ACR.substantial, ACR.high]);
  });

  it.each([
    ['low', [], ACR.low], // nothing asked: the session's own level
    ['substantial', [], ACR.substantial],
    ['one_factor', [], ACR.oneFactor],
    ['high', [ACR.twoFactors], ACR.twoFactors], // the former value, for a platform that asks it
    ['substantial', [ACR.low, ACR.substantial, ACR.high], ACR.substantial], // the highest met
    ['low', [ACR.substantial], ACR.low], // none met: the session's own (the interaction steps up)
  ] as const)('%s asked %j → %s', (level, requested, acr) => {
    expect(acrFor(level, requested)).toBe(acr);
  });
});
