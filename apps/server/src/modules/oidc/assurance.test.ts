import { describe, expect, it } from 'vitest';
import { ACR, acrOf, amrOf } from './assurance.js';

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
