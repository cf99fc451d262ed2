import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  VALIDATION_MESSAGES,
  birthDateSchema,
  createInsOidSchema,
  createPasswordSchema,
  emailSchema,
  firstNameSchema,
  insOidSchema,
  insSchema,
  inseeCodeSchema,
  isValidationMessage,
  lastNameSchema,
  mobilePhoneSchema,
  passwordProblemMessage,
  passwordSchema,
  passwordWithConfirmationSchema,
  professionalIdentifierSchema,
} from './fields.js';

/** The issues of a failed parse as `path: message`, or [] on success. */
function issuesOf(schema: z.ZodType, value: unknown): string[] {
  const result = schema.safeParse(value);
  if (result.success) return [];
  return result.error.issues.map((issue) =>
    issue.path.length === 0 ? issue.message : `${issue.path.join('.')}: ${issue.message}`,
  );
}

const long = (length: number): string => 'x'.repeat(length);

describe('VALIDATION_MESSAGES', () => {
  it('lists unique snake_case keys', () => {
    expect(new Set(VALIDATION_MESSAGES).size).toBe(VALIDATION_MESSAGES.length);
    for (const message of VALIDATION_MESSAGES) expect(message).toMatch(/^[a-z]+(?:_[a-z]+)*$/);
  });

  it('covers every message any field schema can produce', () => {
    const schemas: z.ZodType[] = [
      emailSchema,
      passwordSchema,
      createPasswordSchema({ email: 'jean@example.fr', names: ['Dupont'] }),
      firstNameSchema,
      lastNameSchema,
      mobilePhoneSchema,
      inseeCodeSchema,
      insSchema,
      insOidSchema,
      birthDateSchema,
    ];
    const input = fc.oneof(
      fc.string(),
      fc.string({ unit: 'binary' }),
      fc.constant(undefined),
      fc.integer(),
    );
    fc.assert(
      fc.property(input, (value) => {
        for (const schema of schemas) {
          const result = schema.safeParse(value);
          if (!result.success) {
            for (const issue of result.error.issues)
              expect(isValidationMessage(issue.message)).toBe(true);
          }
        }
      }),
    );
  });
});

describe('emailSchema', () => {
  it.each([
    ['', 'field_required'],
    ['   ', 'field_required'],
    [undefined, 'field_required'],
    [null, 'field_required'],
    [42, 'field_required'],
    ['abc', 'email_invalid'],
    ['jean@example', 'email_invalid'],
    [`${long(170)}@example.fr`, 'email_too_long'],
    [long(181), 'email_too_long'],
  ])('reports %j as %s', (value, message) => {
    expect(issuesOf(emailSchema, value)).toEqual([message]);
  });

  it('accepts 180 characters', () => {
    const email = `${long(64)}@${long(61)}.${long(50)}.fr`;
    expect(email).toHaveLength(180);
    expect(emailSchema.parse(email)).toBe(email);
  });

  it('outputs the trimmed, lower-case address', () => {
    expect(emailSchema.parse('  Jean.Dupont@Example.FR ')).toBe('jean.dupont@example.fr');
  });
});

describe('passwordSchema', () => {
  it.each([
    ['', 'field_required'],
    [undefined, 'field_required'],
    ['abc', 'password_rule'],
    ['xk9plm2q', 'password_rule'],
    ['XK9PLM2Q', 'password_rule'],
    ['XkapLmbq', 'password_rule'],
    ['Xk9pLm2', 'password_rule'],
    [`${'Xk9pLm2q'.repeat(16)}x`, 'password_too_long'],
    ['Password1', 'password_too_common'],
    ['Marseille13', 'password_too_common'],
  ])('reports %j as %s', (value, message) => {
    expect(issuesOf(passwordSchema, value)).toEqual([message]);
  });

  it('keeps the password as typed, spaces included', () => {
    expect(passwordSchema.parse(' Xk9pLm2qw ')).toBe(' Xk9pLm2qw ');
  });

  it('accepts 128 characters', () => {
    expect(issuesOf(passwordSchema, 'Xk9pLm2q'.repeat(16))).toEqual([]);
  });

  it('refuses the e-mail local part and names given as context', () => {
    const schema = createPasswordSchema({ email: 'jean.dupont@example.fr', names: ['Martin'] });
    expect(issuesOf(schema, 'Jean.Dupont9')).toEqual(['password_personal_info']);
    expect(issuesOf(schema, 'Xx9MartinXx')).toEqual(['password_personal_info']);
    expect(issuesOf(schema, 'Xk9pLm2qw')).toEqual([]);
  });
});

describe('passwordProblemMessage', () => {
  it.each([
    [[], null],
    [['too_long', 'missing_digit'], 'password_too_long'],
    [['too_short', 'too_common'], 'password_rule'],
    [['missing_uppercase'], 'password_rule'],
    [['too_common', 'contains_personal_info'], 'password_too_common'],
    [['contains_personal_info'], 'password_personal_info'],
  ] as const)('maps %j to %s', (problems, message) => {
    expect(passwordProblemMessage(problems)).toBe(message);
  });
});

describe('passwordWithConfirmationSchema', () => {
  it('accepts two equal passwords', () => {
    const pair = { password: 'Xk9pLm2qw', passwordConfirmation: 'Xk9pLm2qw' };
    expect(passwordWithConfirmationSchema.parse(pair)).toEqual(pair);
  });

  it.each([
    [
      { password: 'Xk9pLm2qw', passwordConfirmation: 'Xk9pLm2rw' },
      ['passwordConfirmation: passwords_must_match'],
    ],
    [{ password: 'Xk9pLm2qw', passwordConfirmation: '' }, ['passwordConfirmation: field_required']],
    [{ password: 'Xk9pLm2qw' }, ['passwordConfirmation: field_required']],
    [
      { password: '', passwordConfirmation: '' },
      ['password: field_required', 'passwordConfirmation: field_required'],
    ],
  ])('reports %j', (value, issues) => {
    expect(issuesOf(passwordWithConfirmationSchema, value)).toEqual(issues);
  });
});

describe('firstNameSchema', () => {
  it.each([
    ['', 'field_required'],
    ['  ', 'field_required'],
    [undefined, 'field_required'],
    [long(101), 'first_name_length'],
    ['Jean2', 'name_invalid'],
    ['Jean_Pierre', 'name_invalid'],
  ])('reports %j as %s', (value, message) => {
    expect(issuesOf(firstNameSchema, value)).toEqual([message]);
  });

  it.each([
    [' Jean-Pierre ', 'Jean-Pierre'],
    ["D'Artagnan", "D'Artagnan"],
    ['Élodie', 'Élodie'],
    [long(100), long(100)],
  ])('accepts %j as %j', (value, parsed) => {
    expect(firstNameSchema.parse(value)).toBe(parsed);
  });
});

describe('lastNameSchema', () => {
  it.each([
    ['', 'field_required'],
    [long(101), 'name_invalid'],
    ['Dupont!', 'name_invalid'],
  ])('reports %j as %s', (value, message) => {
    expect(issuesOf(lastNameSchema, value)).toEqual([message]);
  });

  it('accepts and trims a compound name', () => {
    expect(lastNameSchema.parse('  Le Goff-Dupont ')).toBe('Le Goff-Dupont');
  });
});

describe('mobilePhoneSchema', () => {
  it.each([
    ['06 12 34 56 78', '+33612345678'],
    ['0740123456', '+33740123456'],
    ['+590690123456', '+590690123456'],
  ])('outputs %j as %s', (value, e164) => {
    expect(mobilePhoneSchema.parse(value)).toBe(e164);
  });

  it.each([
    ['', 'field_required'],
    [undefined, 'field_required'],
    ['0712345678', 'phone_invalid'],
    ['0612345', 'phone_invalid'],
    ['06123456789', 'phone_invalid'],
    ['0140000000', 'phone_invalid'],
  ])('reports %j as %s', (value, message) => {
    expect(issuesOf(mobilePhoneSchema, value)).toEqual([message]);
  });
});

describe('inseeCodeSchema', () => {
  it.each([
    ['2A004', '2A004'],
    ['97101', '97101'],
    ['99109', '99109'],
    ['75056', '75056'],
    [' 2a004 ', '2A004'],
  ])('outputs %j as %s', (value, code) => {
    expect(inseeCodeSchema.parse(value)).toBe(code);
  });

  it.each([
    ['', 'field_required'],
    ['96001', 'insee_invalid'],
    ['2C004', 'insee_invalid'],
    ['7505', 'insee_invalid'],
  ])('reports %j as %s', (value, message) => {
    expect(issuesOf(inseeCodeSchema, value)).toEqual([message]);
  });
});

describe('insSchema', () => {
  it.each([
    '295109912611193',
    '253072B07300470',
    '253072A07300443',
    '279035121518989',
    '185057800608491',
    '290029710112332',
    '185329912304574',
    '170012000401235',
  ])('accepts %s', (ins) => {
    expect(insSchema.parse(ins)).toBe(ins);
  });

  it('outputs the INS without spaces, upper case', () => {
    expect(insSchema.parse(' 2 53 07 2b 073 004 70 ')).toBe('253072B07300470');
  });

  it.each([
    ['', 'field_required'],
    ['295109912611199', 'ins_invalid'],
    ['185057800608492', 'ins_invalid'],
    ['253072C07300443', 'ins_invalid'],
    ['985057800608491', 'ins_invalid'],
    ['185137800608491', 'ins_invalid'],
    ['185057800000091', 'ins_invalid'],
  ])('reports %j as %s', (value, message) => {
    expect(issuesOf(insSchema, value)).toEqual([message]);
  });
});

describe('insOidSchema', () => {
  it.each([
    '1.2.250.1.213.1.4.8',
    '1.2.250.1.213.1.4.9',
    '1.2.250.1.213.1.4.10',
    '1.2.250.1.213.1.4.11',
  ])('accepts %s outside production', (oid) => {
    expect(insOidSchema.parse(oid)).toBe(oid);
  });

  it.each([
    ['', 'field_required'],
    ['1.2.250.1.213.1.4.12', 'oid_invalid'],
    ['abc', 'oid_invalid'],
  ])('reports %j as %s', (value, message) => {
    expect(issuesOf(insOidSchema, value)).toEqual([message]);
  });

  it('refuses the test and demo OIDs in production', () => {
    const production = createInsOidSchema({ production: true });
    expect(issuesOf(production, '1.2.250.1.213.1.4.8')).toEqual([]);
    expect(issuesOf(production, '1.2.250.1.213.1.4.9')).toEqual([]);
    expect(issuesOf(production, '1.2.250.1.213.1.4.10')).toEqual(['oid_invalid']);
    expect(issuesOf(production, '1.2.250.1.213.1.4.11')).toEqual(['oid_invalid']);
  });
});

describe('birthDateSchema', () => {
  it.each(['15/06/1980', '29/02/2000', '00/06/1980', '00/00/1980', ' 01/01/1900 '])(
    'accepts %j',
    (value) => {
      expect(birthDateSchema.parse(value)).toBe(value.trim());
    },
  );

  it.each([
    ['', 'field_required'],
    ['31/02/1980', 'birth_date_invalid'],
    ['15/00/1980', 'birth_date_invalid'],
    ['31/12/1899', 'birth_date_invalid'],
    ['1980-06-15', 'birth_date_invalid'],
    [`01/01/${new Date().getFullYear() + 1}`, 'birth_date_invalid'],
  ])('reports %j as %s', (value, message) => {
    expect(issuesOf(birthDateSchema, value)).toEqual([message]);
  });
});

describe('professionalIdentifierSchema', () => {
  it.each([
    [{ type: 'RPPS', value: '10002909371' }, '10002909371'],
    [{ type: 'ADELI', value: '751234567' }, '751234567'],
    [{ type: 'FINESS', value: '750712184' }, '750712184'],
    [{ type: 'FINESS', value: '2a0000011' }, '2A0000011'],
    [{ type: 'SIREN', value: '732829320' }, '732829320'],
    [{ type: 'SIRET', value: '732 829 320 00074' }, '73282932000074'],
    [{ type: 'SIRET', value: '35600000049837' }, '35600000049837'],
    [{ type: 'DRASS', value: ' AB-123 ' }, 'AB-123'],
  ])('accepts %j', (input, value) => {
    expect(professionalIdentifierSchema.parse(input)).toEqual({ type: input.type, value });
  });

  it.each([
    [{ type: 'RPPS', value: '10002727378' }, ['value: identifier_invalid']],
    [{ type: 'FINESS', value: '750712185' }, ['value: identifier_invalid']],
    [{ type: 'SIREN', value: '732829321' }, ['value: identifier_invalid']],
    [{ type: 'SIRET', value: '73282932000079' }, ['value: identifier_invalid']],
    [{ type: 'SIRET', value: '35600000049838' }, ['value: identifier_invalid']],
    [{ type: 'DRASS', value: long(21) }, ['value: identifier_invalid']],
    [{ type: 'RPPS', value: '' }, ['value: field_required']],
    [{ type: 'RPPS' }, ['value: field_required']],
    [{ value: '10002909371' }, ['type: field_required']],
    [{ type: 'NIR', value: '10002909371' }, ['type: identifier_invalid']],
    [undefined, ['field_required']],
    ['10002909371', ['identifier_invalid']],
  ])('reports %j', (input, issues) => {
    expect(issuesOf(professionalIdentifierSchema, input)).toEqual(issues);
  });
});
