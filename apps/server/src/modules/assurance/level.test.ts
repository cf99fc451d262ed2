import type { AssuranceLevel } from '@hygie/domain';
import { describe, expect, it } from 'vitest';
import {
  assuranceLevel,
  DEFAULT_ASSURANCE_MAPPING,
  mappingProblem,
  recordedMethods,
} from './level.js';

// The one rule of levels (docs/oidc.md): recorded methods + upstream acr + mapping → level.
describe('the level of a sign-in, by the default mapping', () => {
  it.each<[string, string | null, number | null, string | null, AssuranceLevel]>([
    // [what, amr, second factor at, upstream acr, level]
    ['a password alone (a trusted browser skipped the code)', 'pwd', null, null, 'one_factor'],
    ['password + a code by e-mail', 'pwd otp', 1, null, 'low'],
    ['password + a code by SMS', 'pwd sms', 1, null, 'low'],
    ['password + a recovery code', 'pwd rec', 1, null, 'low'],
    ['password + the authenticator app', 'pwd totp', 1, null, 'substantial'],
    ['password + e-mail code, then the app (a step-up)', 'pwd otp totp', 1, null, 'substantial'],
    ['a passkey that verified its user', 'hwk user', 1, null, 'substantial'],
    ['a key without user verification', 'hwk', null, null, 'one_factor'],
    ['a key + an e-mail code (both held: one kind)', 'hwk otp', 1, null, 'one_factor'],
    ['a native key that verified its user', 'swk user', 1, null, 'substantial'],
    ['password + e-mail code, then a passkey', 'pwd otp hwk user', 1, null, 'substantial'],
    ['Pro Santé Connect, e-CPS (eidas1)', 'ext mfa', 1, 'psc:eidas1', 'substantial'],
    ['Pro Santé Connect, CPS card (eidas3)', 'ext mfa', 1, 'psc:eidas3', 'high'],
    ['FranceConnect eidas1 (one factor)', 'ext', null, 'franceconnect:eidas1', 'one_factor'],
    ['FranceConnect eidas1 + the portal’s code', 'ext otp', 1, 'franceconnect:eidas1', 'low'],
    ['FranceConnect eidas1 + the app', 'ext totp', 1, 'franceconnect:eidas1', 'substantial'],
    ['FranceConnect+ eidas2', 'ext mfa', 1, 'franceconnect:eidas2', 'substantial'],
    ['FranceConnect+ eidas3', 'ext mfa', 1, 'franceconnect:eidas3', 'high'],
    ['password + code, then PSC with a card', 'pwd otp ext', 1, 'psc:eidas3', 'high'],
    ['a session from before methods, second factor passed', null, 1, null, 'low'],
    ['a session from before methods, one factor', null, null, null, 'one_factor'],
  ])('%s → %s', (_what, amr, mfa, upstream, level) => {
    const recorded = { amr, mfa_verified_at: mfa, upstream_acr: upstream };
    expect(assuranceLevel(recorded)).toBe(level);
    expect(assuranceLevel(recorded, DEFAULT_ASSURANCE_MAPPING)).toBe(level);
  });

  it('reads the methods with mfa for two kinds and the upstream acr', () => {
    expect(
      recordedMethods({ amr: 'pwd totp totp', mfa_verified_at: 1, upstream_acr: null }),
    ).toEqual(['pwd', 'totp', 'mfa']);
    expect(
      recordedMethods({ amr: 'ext mfa', mfa_verified_at: 1, upstream_acr: 'psc:eidas1' }),
    ).toEqual(['ext', 'mfa', 'psc:eidas1']);
  });
});

describe('an operator’s mapping', () => {
  // A stricter operator: the app counts only after a password; PSC e-CPS counts as low; a CPS
  // card is what their PSC answers eidas2 for.
  const strict = {
    low: [['mfa'], ['psc:eidas1']],
    substantial: [
      ['pwd', 'totp'],
      ['hwk', 'user'],
    ],
    high: [['psc:eidas2']],
  };

  it.each<[string | null, string | null, AssuranceLevel]>([
    ['ext mfa', 'psc:eidas1', 'low'],
    ['ext mfa', 'psc:eidas2', 'high'],
    ['ext totp', 'franceconnect:eidas1', 'low'],
    ['pwd totp', null, 'substantial'],
    ['pwd', null, 'one_factor'],
  ])('%s with %s → %s', (amr, upstream, level) => {
    expect(assuranceLevel({ amr, mfa_verified_at: 1, upstream_acr: upstream }, strict)).toBe(level);
  });

  it('decides nothing lower than a set it lists: an empty level is never reached', () => {
    const none = { low: [], substantial: [], high: [] };
    expect(assuranceLevel({ amr: 'pwd totp', mfa_verified_at: 1, upstream_acr: null }, none)).toBe(
      'one_factor',
    );
  });

  it('names only methods the portal records, or <provider>:<acr> of a known provider', () => {
    expect(mappingProblem(DEFAULT_ASSURANCE_MAPPING)).toBeNull();
    expect(mappingProblem(strict)).toBeNull();
    expect(mappingProblem({ low: [['pwd', 'otpp']], substantial: [], high: [] })).toBe('otpp');
    expect(mappingProblem({ low: [], substantial: [], high: [['acme:eidas3']] })).toBe(
      'acme:eidas3',
    );
    expect(mappingProblem({ low: [], substantial: [], high: [['psc:']] })).toBe('psc:');
    expect(mappingProblem({ low: [], substantial: [], high: [['psc:a:b']] })).toBe('psc:a:b');
  });
});
