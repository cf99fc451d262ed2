import { describe, expect, it } from 'vitest';
import { ACR, acrOf, amrOf, levelOf, requestedLevel } from './assurance.js';

describe('amr and acr of a session', () => {
  it.each([
    ['pwd', null, ['pwd'], ACR.oneFactor], // a trusted browser skipped the second factor
    ['pwd otp', 1, ['pwd', 'otp', 'mfa'], ACR.twoFactors], // code by e-mail
    ['pwd sms', 1, ['pwd', 'sms', 'mfa'], ACR.twoFactors], // code by SMS
    ['hwk user', 1, ['hwk', 'user', 'mfa'], ACR.twoFactors], // a key that verified its user
    ['hwk', null, ['hwk'], ACR.oneFactor], // a key alone
    ['pwd otp otp', 1, ['pwd', 'otp', 'mfa'], ACR.twoFactors],
    [null, 1, ['pwd', 'mfa'], ACR.twoFactors], // a session from before methods were recorded
    [null, null, ['pwd'], ACR.oneFactor],
  ])('%s (second factor at %s) → %j, %s', (amr, mfa, expected, acr) => {
    const methods = amrOf({ amr, mfa_verified_at: mfa });
    expect(methods).toEqual(expected);
    expect(acrOf(methods)).toBe(acr);
  });
});

describe('the level a platform asks for', () => {
  const essential = (acr: object) => JSON.stringify({ id_token: { acr } });
  it.each([
    [{}, 0],
    [{ acr_values: ACR.twoFactors }, 2],
    [{ acr_values: ACR.oneFactor }, 1],
    // Any listed value is acceptable: the lowest one known decides.
    [{ acr_values: `${ACR.twoFactors} ${ACR.oneFactor}` }, 1],
    [{ acr_values: `eidas-high ${ACR.twoFactors}` }, 2],
    [{ acr_values: 'eidas-high' }, 0], // not a value the portal issues
    [{ claims: essential({ essential: true, value: ACR.twoFactors }) }, 2],
    [{ claims: essential({ essential: true, values: [ACR.twoFactors] }) }, 2],
    [{ claims: essential({ value: ACR.twoFactors }) }, 0], // voluntary in claims: a wish
    [{ claims: '{not json' }, 0],
    [{ claims: JSON.stringify({ id_token: { acr: 'x' } }) }, 0],
  ])('%j → %i', (params, level) => {
    expect(requestedLevel(params)).toBe(level);
  });

  it('a session earns 1 with one factor, 2 with two', () => {
    expect(levelOf(['pwd'])).toBe(1);
    expect(levelOf(['pwd', 'otp', 'mfa'])).toBe(2);
  });
});
