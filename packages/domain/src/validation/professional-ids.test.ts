import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  PROFESSIONAL_IDENTIFIER_TYPES,
  isValidAdeli,
  isValidDrass,
  isValidFiness,
  isValidProfessionalIdentifier,
  isValidRpps,
  isValidSiren,
  isValidSiret,
  normalizeProfessionalIdentifier,
  parseNationalProfessionalId,
} from './professional-ids.js';
import type { ProfessionalIdentifierType } from './professional-ids.js';
import { digits, luhnNumber, withOneDigitChanged } from './test/arbitraries.js';

describe('isValidRpps', () => {
  it.each(['10002909371', '10101215225', '10002727377'])('accepts %s', (rpps) => {
    expect(isValidRpps(rpps)).toBe(true);
  });

  it.each([
    ['10002727378', 'Luhn'],
    ['1000290937', 'ten digits'],
    ['100029093710', 'twelve digits'],
    ['1000290937a', 'letter'],
    ['', 'empty'],
  ])('refuses %j (%s)', (rpps) => {
    expect(isValidRpps(rpps)).toBe(false);
  });

  it('ignores whitespace', () => {
    expect(isValidRpps(' 100 0290 9371 ')).toBe(true);
  });

  it('refuses any valid RPPS with one digit changed', () => {
    fc.assert(fc.property(luhnNumber(11).chain(withOneDigitChanged), (rpps) => !isValidRpps(rpps)));
  });
});

describe('isValidAdeli', () => {
  it.each(['751234567', '000000000', '692345678'])('accepts the 9 digits %s', (adeli) => {
    expect(isValidAdeli(adeli)).toBe(true);
  });

  it.each(['75123456', '7512345678', '75123456A', ''])('refuses %j', (adeli) => {
    expect(isValidAdeli(adeli)).toBe(false);
  });
});

describe('isValidFiness', () => {
  it.each(['750712184', '690781810', '2A0000011', '2B0123456', '2a0000011'])(
    'accepts %s',
    (finess) => {
      expect(isValidFiness(finess)).toBe(true);
    },
  );

  it.each([
    ['750712185', 'Luhn'],
    ['75071218', 'eight characters'],
    ['7507121840', 'ten characters'],
    ['2C0000011', 'not Corsica'],
    ['2A000001', 'Corsica with 6 digits'],
    ['', 'empty'],
  ])('refuses %j (%s)', (finess) => {
    expect(isValidFiness(finess)).toBe(false);
  });
});

describe('isValidSiren', () => {
  it('accepts 732829320', () => {
    expect(isValidSiren('732829320')).toBe(true);
  });

  it.each([
    ['732829321', 'Luhn'],
    ['73282932', 'eight digits'],
    ['73282932000074', 'a SIRET'],
    ['', 'empty'],
  ])('refuses %j (%s)', (siren) => {
    expect(isValidSiren(siren)).toBe(false);
  });

  it('refuses any valid SIREN with one digit changed', () => {
    fc.assert(
      fc.property(luhnNumber(9).chain(withOneDigitChanged), (siren) => !isValidSiren(siren)),
    );
  });
});

describe('isValidSiret', () => {
  it.each([
    ['73282932000074', 'Luhn'],
    ['35600000049837', 'La Poste: sum of digits divisible by 5'],
    ['35600000000048', 'La Poste head office: Luhn'],
  ])('accepts %s (%s)', (siret) => {
    expect(isValidSiret(siret)).toBe(true);
  });

  it.each([
    ['73282932000079', 'Luhn'],
    ['35600000049838', 'La Poste sum of digits'],
    ['7328293200007', '13 digits'],
    ['732829320000740', '15 digits'],
    ['', 'empty'],
  ])('refuses %j (%s)', (siret) => {
    expect(isValidSiret(siret)).toBe(false);
  });

  it('ignores whitespace', () => {
    expect(isValidSiret('732 829 320 00074')).toBe(true);
  });

  it('refuses any valid non-La Poste SIRET with one digit changed', () => {
    fc.assert(
      fc.property(
        luhnNumber(14)
          .filter((siret) => !siret.startsWith('356000000'))
          .chain(withOneDigitChanged)
          .filter((siret) => !siret.startsWith('356000000')),
        (siret) => !isValidSiret(siret),
      ),
    );
  });

  it('checks La Poste establishments by their sum of digits', () => {
    fc.assert(
      fc.property(digits(5), (rest) => {
        const siret = `356000000${rest}`;
        fc.pre(siret !== '35600000000048');
        const sum = [...siret].reduce((total, digit) => total + Number(digit), 0);
        return isValidSiret(siret) === (sum % 5 === 0);
      }),
    );
  });
});

describe('isValidDrass', () => {
  it.each(['A', '12345', ' 2A-0042 ', '12345678901234567890'])('accepts %j', (drass) => {
    expect(isValidDrass(drass)).toBe(true);
  });

  it.each(['', '   ', '123456789012345678901'])('refuses %j', (drass) => {
    expect(isValidDrass(drass)).toBe(false);
  });
});

describe('isValidProfessionalIdentifier', () => {
  it.each<[ProfessionalIdentifierType, string, boolean]>([
    ['RPPS', '10002909371', true],
    ['RPPS', '10002727378', false],
    ['ADELI', '751234567', true],
    ['ADELI', '75123456', false],
    ['FINESS', '750712184', true],
    ['FINESS', '750712185', false],
    ['SIREN', '732829320', true],
    ['SIREN', '732829321', false],
    ['SIRET', '73282932000074', true],
    ['SIRET', '73282932000079', false],
    ['DRASS', 'AB-123', true],
    ['DRASS', '', false],
    ['SIRET', '732829320', false],
    ['SIREN', '73282932000074', false],
  ])('checks %s %j as %s', (type, value, valid) => {
    expect(isValidProfessionalIdentifier(type, value)).toBe(valid);
  });

  it('refuses an unknown type at run time', () => {
    expect(isValidProfessionalIdentifier('NIR', '1')).toBe(false);
  });

  it('lists the six types', () => {
    expect(PROFESSIONAL_IDENTIFIER_TYPES).toEqual([
      'RPPS',
      'ADELI',
      'FINESS',
      'SIRET',
      'SIREN',
      'DRASS',
    ]);
  });
});

describe('normalizeProfessionalIdentifier', () => {
  it.each<[ProfessionalIdentifierType, string, string]>([
    ['SIRET', ' 732 829 320 00074 ', '73282932000074'],
    ['FINESS', '2a 0000011', '2A0000011'],
    ['DRASS', '  ab 12  ', 'ab 12'],
  ])('normalises %s %j to %j', (type, value, expected) => {
    expect(normalizeProfessionalIdentifier(type, value)).toBe(expected);
  });
});

describe('parseNationalProfessionalId', () => {
  it.each([
    ['810002909371', { type: 'RPPS', value: '10002909371' }],
    ['810101215225', { type: 'RPPS', value: '10101215225' }],
    [' 8 10002727377 ', { type: 'RPPS', value: '10002727377' }],
    ['0751234567', { type: 'ADELI', value: '751234567' }],
  ])('reads %j', (id, expected) => {
    expect(parseNationalProfessionalId(id)).toEqual(expected);
  });

  it.each([
    ['810002727378', 'RPPS failing Luhn'],
    ['10002909371', 'bare RPPS'],
    ['910002909371', 'unknown prefix'],
    ['81000290937', 'too short'],
    ['075123456', 'ADELI too short'],
    ['07512345678', 'ADELI too long'],
    ['', 'empty'],
  ])('refuses %j (%s)', (id) => {
    expect(parseNationalProfessionalId(id)).toBeNull();
  });
});
