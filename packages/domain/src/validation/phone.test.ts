import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatPhone, isValidMobilePhone, normalizeMobilePhone } from './phone.js';
import { anyText, frenchMobileCandidate } from './test/arbitraries.js';

describe('normalizeMobilePhone', () => {
  it.each([
    ['06 12 34 56 78', '+33612345678'],
    ['0740123456', '+33740123456'],
    ['+590690123456', '+590690123456'],
  ])('reads the domain-rules vector %j as %s', (input, e164) => {
    expect(normalizeMobilePhone(input)).toBe(e164);
  });

  it.each([
    ['0712345678', 'unallocated 07 range'],
    ['0612345', 'too short'],
    ['06123456789', 'too long'],
    ['0140000000', 'landline'],
  ])('refuses the domain-rules vector %j (%s)', (input) => {
    expect(normalizeMobilePhone(input)).toBeNull();
  });

  it.each([
    ['+33 6 12 34 56 78', '+33612345678'],
    ['0033612345678', '+33612345678'],
    ['06.12.34.56.78', '+33612345678'],
    ['06-12-34-56-78', '+33612345678'],
    ['+33 (0)6 12 34 56 78', '+33612345678'],
    ['  0612345678  ', '+33612345678'],
    ['+594694201234', '+594694201234'],
    ['+596696201234', '+596696201234'],
    ['+596697001234', '+596697001234'],
    ['+262692123456', '+262692123456'],
    ['+262693123456', '+262693123456'],
    ['+262639012345', '+262639012345'],
    ['+447400123456', '+447400123456'],
    ['+4915123456789', '+4915123456789'],
  ])('reads %j as %s', (input, e164) => {
    expect(normalizeMobilePhone(input)).toBe(e164);
  });

  it.each([
    ['0690123456', '+590690123456', 'Guadeloupe'],
    ['0694201234', '+594694201234', 'Guyane'],
    ['0696201234', '+596696201234', 'Martinique'],
    ['0692123456', '+262692123456', 'La Réunion'],
    ['0639012345', '+262639012345', 'Mayotte'],
  ])('reads the overseas mobile %j typed in national form as %s (%s)', (input, e164) => {
    expect(normalizeMobilePhone(input)).toBe(e164);
  });

  it('accepts a number the metadata cannot class as mobile or landline', () => {
    expect(normalizeMobilePhone('+1 201 555 0123')).toBe('+12015550123');
  });

  it('reads national numbers in the given default country', () => {
    expect(normalizeMobilePhone('07400 123456', 'GB')).toBe('+447400123456');
    expect(normalizeMobilePhone('0690123456', 'GB')).toBeNull();
  });

  it.each([
    ['', 'empty'],
    ['+', 'plus only'],
    ['abc', 'letters'],
    ['0612345678 ext 5', 'extension'],
    ['call 0612345678', 'surrounding text'],
    ['tel:+33612345678', 'URI'],
    ['+33140000000', 'international landline'],
    ['+590590123456', 'Guadeloupe landline'],
    ['0800123456', 'free phone'],
    ['0899123456', 'premium rate'],
    ['0709000000', 'invalid in France, and not an overseas mobile prefix'],
  ])('refuses %j (%s)', (input) => {
    expect(normalizeMobilePhone(input)).toBeNull();
  });

  it('is idempotent on its output', () => {
    fc.assert(
      fc.property(fc.oneof(frenchMobileCandidate, anyText), (input) => {
        const e164 = normalizeMobilePhone(input);
        return e164 === null || normalizeMobilePhone(e164) === e164;
      }),
    );
  });

  it('returns E.164 for every accepted 06 number', () => {
    fc.assert(
      fc.property(frenchMobileCandidate, (input) => {
        const e164 = normalizeMobilePhone(input);
        return e164 === null || e164 === `+33${input.slice(1)}`;
      }),
    );
  });
});

describe('isValidMobilePhone', () => {
  it.each([
    ['06 12 34 56 78', true],
    ['+590690123456', true],
    ['0140000000', false],
    ['', false],
  ])('says %j is %s', (input, valid) => {
    expect(isValidMobilePhone(input)).toBe(valid);
  });
});

describe('formatPhone', () => {
  it.each([
    ['+33612345678', '06 12 34 56 78'],
    ['+33740123456', '07 40 12 34 56'],
    ['+590690123456', '0690 12 34 56'],
    ['+262639012345', '0639 01 23 45'],
    ['+447400123456', '+44 7400 123456'],
    ['+4915123456789', '+49 1512 3456789'],
    ['not a number', 'not a number'],
    ['', ''],
  ])('shows %j as %j', (e164, shown) => {
    expect(formatPhone(e164)).toBe(shown);
  });

  it('reads back as the same number', () => {
    for (const e164 of ['+33612345678', '+590690123456', '+447400123456']) {
      expect(normalizeMobilePhone(formatPhone(e164))).toBe(e164);
    }
  });
});
