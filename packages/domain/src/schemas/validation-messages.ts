import { isOneOf } from '../one-of.js';
import { ISSUE_MESSAGES } from './issue-messages.js';

// Kept apart from fields.ts, whose validators (phone metadata among them) weigh about 200 kB in a
// browser bundle: the error catalogue needs the list of messages, not the validators.

/**
 * Messages of the field schemas, and of any schema part without one (ISSUE_MESSAGES): translation
 * keys the web's locale files and the server's catalogue must all define.
 */
export const VALIDATION_MESSAGES = [
  ...ISSUE_MESSAGES,
  'email_invalid',
  'email_too_long',
  'first_name_length',
  'name_invalid',
  'insee_invalid',
  'ins_invalid',
  'oid_invalid',
  'phone_invalid',
  'password_rule',
  'password_too_long',
  'password_too_common',
  'password_personal_info',
  'passwords_must_match',
  'birth_date_invalid',
  'identifier_invalid',
  'code_format',
  'recovery_code_format',
  'cgu_must_be_accepted',
  'identifier_taken',
  'identity_locked',
  'address_too_long',
  'postal_code_invalid',
  'country_invalid',
  'parent_ins_same',
] as const;
export type ValidationMessage = (typeof VALIDATION_MESSAGES)[number];

/** True when `message` is one of VALIDATION_MESSAGES. */
export function isValidationMessage(message: unknown): message is ValidationMessage {
  return isOneOf(VALIDATION_MESSAGES, message);
}
