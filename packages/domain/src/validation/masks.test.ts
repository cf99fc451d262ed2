import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maskEmail, maskPhone } from './masks.js';
import { normalizeMobilePhone } from './phone.js';
import { frenchMobileCandidate } from './test/arbitraries.js';

describe('maskPhone', () => {
  it.each([
    ['+33612345678', '06 •• •• •• 78'],
    ['+33740123456', '07 •• •• •• 56'],
    ['+590690123456', '0690 •• •• 56'],
    ['+262639012345', '0639 •• •• 45'],
    ['+447400123456', '+44 7 • •• •• •• 56'],
    ['+14155550123', '+1 4 • •• •• •• 23'],
  ])('masks %s as %j', (e164, masked) => {
    expect(maskPhone(e164)).toBe(masked);
  });

  it.each([
    ['', ''],
    ['12', '12'],
    ['not a phone 1234', '••34'],
  ])('keeps only the last two digits of the unparseable %j', (input, masked) => {
    expect(maskPhone(input)).toBe(masked);
  });

  it('shows a French mobile in national form, its last two digits, and hides the middle', () => {
    fc.assert(
      fc.property(frenchMobileCandidate, (input) => {
        const e164 = normalizeMobilePhone(input);
        fc.pre(e164 !== null && e164.startsWith('+33'));
        const masked = maskPhone(e164);
        expect(masked.startsWith(`0${e164.charAt(3)} `)).toBe(true);
        expect(masked.endsWith(e164.slice(-2))).toBe(true);
        expect(masked.replace(/\D/g, '')).toBe(`0${e164.charAt(3)}${e164.slice(-2)}`);
      }),
    );
  });
});

describe('maskEmail', () => {
  it.each([
    ['jean.dupont@example.fr', 'j•••••••••t@example.fr'],
    ['abc@example.fr', 'a•c@example.fr'],
    ['ab@example.fr', 'a•@example.fr'],
    ['a@example.fr', '•@example.fr'],
    ['élodie@example.fr', 'é••••e@example.fr'],
    ['no-at-sign', 'n••••••••n'],
    ['', ''],
  ])('masks %j as %j', (email, masked) => {
    expect(maskEmail(email)).toBe(masked);
  });

  it('keeps the domain and the length of the local part', () => {
    fc.assert(
      fc.property(fc.emailAddress(), (email) => {
        const at = email.lastIndexOf('@');
        const masked = maskEmail(email);
        expect(masked.endsWith(email.slice(at))).toBe(true);
        expect([...masked].length).toBe([...email].length);
      }),
    );
  });
});
