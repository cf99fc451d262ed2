import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as validation from './index.js';
import { anyText } from './test/arbitraries.js';

/** Every function that takes user input; none may throw, whatever the input. */
const ON_TEXT: Record<string, (value: string) => unknown> = {
  luhn: validation.luhn,
  isValidIns: validation.isValidIns,
  normalizeIns: validation.normalizeIns,
  isValidInsOid: validation.isValidInsOid,
  isValidInsOidInProduction: (value) => validation.isValidInsOid(value, { production: true }),
  isValidInseeCode: validation.isValidInseeCode,
  isValidRpps: validation.isValidRpps,
  isValidAdeli: validation.isValidAdeli,
  isValidFiness: validation.isValidFiness,
  isValidSiren: validation.isValidSiren,
  isValidSiret: validation.isValidSiret,
  isValidDrass: validation.isValidDrass,
  parseNationalProfessionalId: validation.parseNationalProfessionalId,
  normalizeMobilePhone: validation.normalizeMobilePhone,
  isValidMobilePhone: validation.isValidMobilePhone,
  maskPhone: validation.maskPhone,
  maskEmail: validation.maskEmail,
  isValidEmail: validation.isValidEmail,
  normalizeEmail: validation.normalizeEmail,
  isValidFirstName: validation.isValidFirstName,
  isValidName: validation.isValidName,
  parseBirthDate: validation.parseBirthDate,
  detectUsernameKind: validation.detectUsernameKind,
  normalizePassword: validation.normalizePassword,
  checkPassword: (value) => validation.checkPassword(value, { email: value, names: [value] }),
  isCommonPassword: validation.isCommonPassword,
};

describe('validators on arbitrary input', () => {
  it.each(Object.entries(ON_TEXT))('%s never throws', (_name, fn) => {
    fc.assert(
      fc.property(anyText, (value) => {
        expect(() => fn(value)).not.toThrow();
      }),
    );
  });

  it.each(validation.PROFESSIONAL_IDENTIFIER_TYPES)(
    'isValidProfessionalIdentifier(%s) never throws',
    (type) => {
      fc.assert(
        fc.property(anyText, (value) => {
          expect(() => validation.isValidProfessionalIdentifier(type, value)).not.toThrow();
        }),
      );
    },
  );
});
