import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { identityCorrectionSchema, profileUpdateSchema } from './account.js';
import {
  genderSchema,
  isValidationMessage,
  postalAddressSchema,
  professionalCategorySchema,
} from './fields.js';

/** The issues of a failed parse as `path: message`, or [] on success. */
function issuesOf(schema: z.ZodType, value: unknown): string[] {
  const result = schema.safeParse(value);
  if (result.success) return [];
  return result.error.issues.map((issue) =>
    issue.path.length === 0 ? issue.message : `${issue.path.join('.')}: ${issue.message}`,
  );
}

const PARIS = { line1: '12 rue de la Paix', postalCode: '75002', city: 'Paris', country: 'FR' };

describe('professionalCategorySchema', () => {
  it.each(['C', 'M', 'E'])('accepts the TRE_R09 code %s', (code) => {
    expect(professionalCategorySchema.parse(code)).toBe(code);
  });

  it.each([
    ['c', 'field_invalid'],
    ['F', 'field_invalid'],
    ['civil', 'field_invalid'],
    [3, 'field_invalid'],
    [undefined, 'field_required'],
  ])('refuses %j with %s', (value, message) => {
    expect(issuesOf(professionalCategorySchema, value)).toEqual([message]);
  });
});

describe('genderSchema', () => {
  it.each(['female', 'male', 'non_binary', 'undisclosed'])('accepts %s', (gender) => {
    expect(genderSchema.parse(gender)).toBe(gender);
  });

  it.each(['unknown', 'Female', '', 'other'])('refuses %j', (gender) => {
    expect(issuesOf(genderSchema, gender)).toEqual(['field_invalid']);
  });
});

describe('postalAddressSchema', () => {
  it('accepts a French address and outputs its canonical form', () => {
    expect(
      postalAddressSchema.parse({
        line1: '  12 rue de la Paix ',
        line2: '  ',
        postalCode: ' 75002 ',
        city: ' Paris ',
        country: 'fr',
      }),
    ).toEqual({ ...PARIS, line2: null });
  });

  it('takes France when no country is given, and keeps a complement', () => {
    expect(
      postalAddressSchema.parse({
        line1: '3 allée des Pins',
        line2: 'Bât. B',
        postalCode: '97411',
        city: 'Saint-Paul',
      }),
    ).toEqual({
      line1: '3 allée des Pins',
      line2: 'Bât. B',
      postalCode: '97411',
      city: 'Saint-Paul',
      country: 'FR',
    });
  });

  it('accepts a foreign postal code in its country', () => {
    expect(
      postalAddressSchema.parse({
        ...PARIS,
        postalCode: 'sw1a 1aa',
        city: 'London',
        country: 'GB',
      }),
    ).toMatchObject({ postalCode: 'SW1A 1AA', country: 'GB' });
  });

  it.each([
    [{ ...PARIS, postalCode: '7500' }, ['postalCode: postal_code_invalid']],
    [{ ...PARIS, postalCode: '750021' }, ['postalCode: postal_code_invalid']],
    [{ ...PARIS, postalCode: 'SW1A 1AA' }, ['postalCode: postal_code_invalid']],
    [{ ...PARIS, country: 'XX' }, ['country: country_invalid']],
    [{ ...PARIS, country: 'FRA' }, ['country: country_invalid']],
    [{ ...PARIS, line1: ' ' }, ['line1: field_required']],
    [{ ...PARIS, line1: 'x'.repeat(101) }, ['line1: address_too_long']],
    [{ ...PARIS, line2: 'x'.repeat(101) }, ['line2: address_too_long']],
    [{ ...PARIS, city: 'Par\nis' }, ['city: field_invalid']],
    [{ ...PARIS, city: '' }, ['city: field_required']],
    [{ line1: 'x', city: 'Paris' }, ['postalCode: field_required']],
    ['12 rue de la Paix', ['field_invalid']],
  ])('refuses %j', (value, issues) => {
    expect(issuesOf(postalAddressSchema, value)).toEqual(issues);
  });

  it('accepts 100 characters a line', () => {
    expect(issuesOf(postalAddressSchema, { ...PARIS, line1: 'é'.repeat(100) })).toEqual([]);
  });
});

describe('profileUpdateSchema: the new person fields', () => {
  const OWN = '295109912611193';
  const PARENT = '185057800608491';

  it('accepts them, the parent INS in canonical form', () => {
    expect(
      profileUpdateSchema.parse({
        category: 'M',
        gender: 'non_binary',
        address: PARIS,
        ins: OWN,
        parentIns: '1 85 05 78 006 084 91',
      }),
    ).toEqual({
      category: 'M',
      gender: 'non_binary',
      address: { ...PARIS, line2: null },
      ins: OWN,
      parentIns: PARENT,
    });
  });

  it('clears them with null', () => {
    const cleared = { category: null, gender: null, address: null, parentIns: null };
    expect(profileUpdateSchema.parse(cleared)).toEqual(cleared);
  });

  it('refuses a parent INS that is not an INS, or is the patient’s own', () => {
    expect(issuesOf(profileUpdateSchema, { parentIns: '185057800608492' })).toEqual([
      'parentIns: ins_invalid',
    ]);
    expect(
      issuesOf(profileUpdateSchema, { ins: OWN, parentIns: `${OWN.slice(0, 1)} ${OWN.slice(1)}` }),
    ).toEqual(['parentIns: parent_ins_same']);
  });

  it('names each problem of an address by its path, with a validation message', () => {
    const issues = profileUpdateSchema.safeParse({
      address: { line1: '', postalCode: '123', city: 'Lyon' },
    }).error?.issues;
    expect(issues?.map((issue) => issue.path.join('.'))).toContain('address.line1');
    for (const issue of issues ?? []) expect(isValidationMessage(issue.message)).toBe(true);
  });

  it('leaves them out of the admin identity correction', () => {
    expect(Object.keys(identityCorrectionSchema.shape)).not.toContain('parentIns');
    expect(Object.keys(identityCorrectionSchema.shape)).not.toContain('address');
  });
});
