import { z } from 'zod';
import {
  checkPassword,
  passwordProblemMessage,
  CODES,
  isValidEmail,
  LIMITS,
  normalizePassword,
  normalizeRecoveryCode,
  type ValidationMessage,
} from '@hygie/domain';

// Light field schemas for the screens of the sign-in path (MFA, verifications, passwords…). They
// apply the domain's rules through its validators only: the field schemas of the domain
// (`schemas/fields`, `schemas/security`) pull every validator, phone metadata included, into the
// page. Registration and the phone screen use the domain schemas themselves.

/** `field_invalid` is the web's generic text for a value the domain has no message for. */
const message = (key: ValidationMessage | 'field_invalid') => ({ error: key });

/** A required text (trimmed). */
export function requiredText(max: number = LIMITS.usernameMax) {
  return z
    .string(message('field_required'))
    .trim()
    .min(1, message('field_required'))
    .max(max, message('field_invalid'));
}

/** E-mail as the domain checks it; outputs the trimmed text. */
export const emailField = z
  .string(message('field_required'))
  .trim()
  .min(1, message('field_required'))
  .max(LIMITS.emailMax, message('email_too_long'))
  .refine(isValidEmail, message('email_invalid'));

/** A one-time code as typed in the CodeInput: 6 digits (spaces ignored), like the domain's. */
export const codeField = z
  .string(message('field_required'))
  .transform((value) => value.replace(/\s+/g, ''))
  .pipe(
    z
      .string()
      .min(1, message('field_required'))
      .regex(new RegExp(`^\\d{${CODES.length}}$`), message('code_format')),
  );

/** A recovery code as typed: upper or lower case, spaces and dashes; 12 letters and digits. */
export const recoveryCodeField = z
  .string(message('field_required'))
  .transform(normalizeRecoveryCode)
  .pipe(
    z
      .string()
      .min(1, message('field_required'))
      .regex(/^[0-9A-HJKMNP-TV-Z]{12}$/, message('recovery_code_format')),
  );

/** The message for a new password under the spec rule, most pressing first; null when fine. */
export function passwordRuleMessage(password: string): ValidationMessage | null {
  if (password === '') return 'field_required';
  return passwordProblemMessage(checkPassword(normalizePassword(password)));
}

/** A new password typed twice: the rule on the first, "must match" on the confirmation. */
export const newPasswordFields = z
  .object({
    password: z.string(message('field_required')),
    passwordConfirmation: z.string(message('field_required')),
  })
  .superRefine((value, ctx) => {
    const problem = passwordRuleMessage(value.password);
    if (problem) ctx.addIssue({ code: 'custom', path: ['password'], message: problem });
    if (value.passwordConfirmation === '') {
      ctx.addIssue({ code: 'custom', path: ['passwordConfirmation'], message: 'field_required' });
    } else if (value.password !== value.passwordConfirmation) {
      ctx.addIssue({
        code: 'custom',
        path: ['passwordConfirmation'],
        message: 'passwords_must_match',
      });
    }
  });
export type NewPasswordValues = z.infer<typeof newPasswordFields>;
