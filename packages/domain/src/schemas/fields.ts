import { z } from 'zod';
import { LIMITS } from '../constants.js';
import type { ValidationMessage } from './validation-messages.js';
import { isValidBirthDate } from '../validation/birth-date.js';
import { isValidEmail, normalizeEmail } from '../validation/email.js';
import { isValidIns, normalizeIns } from '../validation/ins.js';
import { isValidInseeCode, normalizeInseeCode } from '../validation/insee.js';
import { isValidFirstName, isValidName } from '../validation/names.js';
import { isValidInsOid } from '../validation/oid.js';
import { checkPassword } from '../validation/password.js';
import type { PasswordContext, PasswordProblem } from '../validation/password.js';
import { normalizeMobilePhone } from '../validation/phone.js';
import {
  DEFAULT_COUNTRY,
  isValidCountry,
  isValidPostalCode,
  normalizeCountry,
  normalizePostalCode,
} from '../validation/postal-address.js';
import {
  PROFESSIONAL_IDENTIFIER_TYPES,
  isValidProfessionalIdentifier,
  normalizeProfessionalIdentifier,
} from '../validation/professional-ids.js';

export {
  VALIDATION_MESSAGES,
  isValidationMessage,
  type ValidationMessage,
} from './validation-messages.js';

type Check = (value: string) => ValidationMessage | null;

/** A string that must be present: a missing value or a non-string also reads 'field_required'. */
const requiredString = (): z.ZodString => z.string({ error: 'field_required' });

/** Error map: 'field_required' for a missing value, else `message`. */
const requiredOr =
  (message: ValidationMessage) =>
  (issue: { input?: unknown }): ValidationMessage =>
    issue.input === undefined || issue.input === null ? 'field_required' : message;

/** Adds one issue at most: 'field_required' when empty, else the first message `check` returns. */
function refineRequired(check: Check) {
  return (value: string, ctx: z.RefinementCtx<string>): void => {
    const message = value === '' ? 'field_required' : check(value);
    if (message !== null) ctx.addIssue({ code: 'custom', message, input: value });
  };
}

/** E-mail: trimmed, at most 180 characters, valid; outputs the lower-case form. */
export const emailSchema = requiredString()
  .trim()
  .superRefine(
    refineRequired((value) => {
      if (value.length > LIMITS.emailMax) return 'email_too_long';
      return isValidEmail(value) ? null : 'email_invalid';
    }),
  )
  .overwrite(normalizeEmail);

/** The message a form shows for password problems, most pressing first; null when none. */
export function passwordProblemMessage(
  problems: readonly PasswordProblem[],
): ValidationMessage | null {
  if (problems.includes('too_long')) return 'password_too_long';
  if (
    problems.some((problem) =>
      ['too_short', 'missing_digit', 'missing_lowercase', 'missing_uppercase', 'too_weak'].includes(
        problem,
      ),
    )
  ) {
    return 'password_rule';
  }
  if (problems.includes('too_common')) return 'password_too_common';
  if (problems.includes('contains_personal_info')) return 'password_personal_info';
  return null;
}

/**
 * Password under the spec rule, refusing the e-mail local part and names of `context`. Never
 * trimmed nor rewritten: hash `normalizePassword(password)`.
 */
export function createPasswordSchema(context: PasswordContext = {}): z.ZodString {
  return requiredString().superRefine(
    refineRequired((value) => passwordProblemMessage(checkPassword(value, context))),
  );
}

/** Password under the spec rule (8–128 characters, digit, lower, upper, ≥ 50 bits, not common). */
export const passwordSchema = createPasswordSchema();

/** Object-level check: 'passwords_must_match' on `passwordConfirmation` when it differs. */
export function checkPasswordsMatch(
  value: { password: string; passwordConfirmation: string },
  ctx: z.RefinementCtx<{ password: string; passwordConfirmation: string }>,
): void {
  if (value.passwordConfirmation !== '' && value.password !== value.passwordConfirmation) {
    ctx.addIssue({
      code: 'custom',
      message: 'passwords_must_match',
      path: ['passwordConfirmation'],
      input: value.passwordConfirmation,
    });
  }
}

/** A new password typed twice (sign-up, reset). */
export const passwordWithConfirmationSchema = z
  .object({
    password: passwordSchema,
    passwordConfirmation: requiredString().superRefine(refineRequired(() => null)),
  })
  .superRefine(checkPasswordsMatch);

/** First name: trimmed, 1 to 100 characters of letters, spaces, hyphens and apostrophes. */
export const firstNameSchema = requiredString()
  .trim()
  .superRefine(
    refineRequired((value) => {
      if ([...value].length > LIMITS.firstNameMax) return 'first_name_length';
      return isValidFirstName(value) ? null : 'name_invalid';
    }),
  );

/** Last name: trimmed, 1 to 100 characters of letters, spaces, hyphens and apostrophes. */
export const lastNameSchema = requiredString()
  .trim()
  .superRefine(refineRequired((value) => (isValidName(value) ? null : 'name_invalid')));

/** Mobile phone as typed (FR by default, or international); outputs E.164. */
export const mobilePhoneSchema = requiredString()
  .trim()
  .transform((value, ctx) => {
    const e164 = value === '' ? null : normalizeMobilePhone(value);
    if (e164 === null) {
      const message: ValidationMessage = value === '' ? 'field_required' : 'phone_invalid';
      ctx.addIssue({ code: 'custom', message, input: value });
      return z.NEVER;
    }
    return e164;
  });

/** INSEE commune code of the birthplace; outputs the upper-case form (`2a004` → `2A004`). */
export const inseeCodeSchema = requiredString()
  .overwrite(normalizeInseeCode)
  .superRefine(refineRequired((value) => (isValidInseeCode(value) ? null : 'insee_invalid')));

/** INS matricule (structure and key); outputs it without spaces, upper case. */
export const insSchema = requiredString()
  .overwrite(normalizeIns)
  .superRefine(refineRequired((value) => (isValidIns(value) ? null : 'ins_invalid')));

/** INS OID; with `production`, the test and demo OIDs are refused. */
export function createInsOidSchema(options: { production?: boolean } = {}): z.ZodString {
  return requiredString()
    .trim()
    .superRefine(refineRequired((value) => (isValidInsOid(value, options) ? null : 'oid_invalid')));
}

/** INS OID, any of the four (forms); the server uses createInsOidSchema({ production }). */
export const insOidSchema = createInsOidSchema();

/**
 * Birth date as typed, DD/MM/YYYY: a real date from 1900 to today, or partial with 00 for an
 * unknown day (00/MM/YYYY) or day and month (00/00/YYYY). Outputs the trimmed text.
 */
export const birthDateSchema = requiredString()
  .trim()
  .superRefine(refineRequired((value) => (isValidBirthDate(value) ? null : 'birth_date_invalid')));

/** A professional identifier checked by its type; outputs the value in canonical form. */
export const professionalIdentifierSchema = z
  .object(
    {
      type: z.enum(PROFESSIONAL_IDENTIFIER_TYPES, { error: requiredOr('identifier_invalid') }),
      value: requiredString()
        .trim()
        .superRefine(refineRequired(() => null)),
    },
    { error: requiredOr('identifier_invalid') },
  )
  .transform(({ type, value }, ctx) => {
    if (!isValidProfessionalIdentifier(type, value)) {
      ctx.addIssue({
        code: 'custom',
        message: 'identifier_invalid',
        path: ['value'],
        input: value,
      });
      return z.NEVER;
    }
    return { type, value: normalizeProfessionalIdentifier(type, value) };
  });

export type ProfessionalIdentifier = z.output<typeof professionalIdentifierSchema>;

/**
 * A professional's category, as Pro Santé Connect's SubjectRefPro carries it
 * (codeCategorieProfessionnelle, ANS nomenclature TRE_R09-CategorieProfessionnelle): C civil,
 * M military, E student.
 */
export const PROFESSIONAL_CATEGORIES = ['C', 'M', 'E'] as const;
export type ProfessionalCategory = (typeof PROFESSIONAL_CATEGORIES)[number];
export const professionalCategorySchema = z.enum(PROFESSIONAL_CATEGORIES, {
  error: requiredOr('field_invalid'),
});

/**
 * How the person wishes to be addressed (self-declared), distinct from the civil-status `sex`
 * (an INS trait): `undisclosed` when they prefer not to say.
 */
export const GENDERS = ['female', 'male', 'non_binary', 'undisclosed'] as const;
export type Gender = (typeof GENDERS)[number];
export const genderSchema = z.enum(GENDERS, { error: requiredOr('field_invalid') });

/** True when `value` holds a control character (a line break in a one-line field…). */
const hasControl = (value: string): boolean => /\p{Cc}/u.test(value);

/** One line of text of an address: trimmed, at most LIMITS.addressLineMax characters. */
const addressText = (value: string): ValidationMessage | null => {
  if ([...value].length > LIMITS.addressLineMax) return 'address_too_long';
  return hasControl(value) ? 'field_invalid' : null;
};

/**
 * A postal address: the street line, an optional complement, the postal code (five digits in
 * France), the city and the country (ISO 3166-1 alpha-2, France when absent). Outputs the
 * canonical forms (postal code and country upper case, a blank complement null).
 */
export const postalAddressSchema = z
  .object(
    {
      line1: requiredString().trim().superRefine(refineRequired(addressText)),
      line2: z
        .string({ error: 'field_invalid' })
        .trim()
        .superRefine((value, ctx) => {
          const message = addressText(value);
          if (message !== null) ctx.addIssue({ code: 'custom', message, input: value });
        })
        .nullish()
        .transform((value) => (value ? value : null)),
      postalCode: requiredString()
        .overwrite(normalizePostalCode)
        .superRefine(refineRequired(() => null)),
      city: requiredString().trim().superRefine(refineRequired(addressText)),
      country: requiredString()
        .overwrite(normalizeCountry)
        .superRefine(refineRequired((value) => (isValidCountry(value) ? null : 'country_invalid')))
        .default(DEFAULT_COUNTRY),
    },
    { error: requiredOr('field_invalid') },
  )
  .superRefine((address, ctx) => {
    if (!isValidPostalCode(address.postalCode, address.country)) {
      ctx.addIssue({
        code: 'custom',
        message: 'postal_code_invalid',
        path: ['postalCode'],
        input: address.postalCode,
      });
    }
  });
export type PostalAddress = z.output<typeof postalAddressSchema>;
