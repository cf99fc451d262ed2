import * as z from 'zod/mini';

/**
 * Messages of the schema parts that name none (a plain z.boolean(), z.enum, z.number, a strict
 * object's unknown key, a .max() on a string…): translation keys like the field schemas' own, so
 * that no zod default text (English) ever reaches a screen or an API client.
 */
export const ISSUE_MESSAGES = [
  'field_required',
  'field_invalid',
  'too_long',
  'too_short',
  'too_many_items',
  'too_few_items',
  'choice_invalid',
  'unknown_field',
  'number_invalid',
  'number_out_of_range',
] as const;
export type IssueMessage = (typeof ISSUE_MESSAGES)[number];

const NUMBERS = new Set(['number', 'int', 'bigint', 'nan']);
const COLLECTIONS = new Set(['array', 'set']);

/** The message key of a zod issue raised without an explicit message. */
export function issueMessage(issue: z.core.$ZodRawIssue): IssueMessage {
  // A value that is not there: whatever was expected of it, it is missing.
  if (issue.code !== 'unrecognized_keys' && (issue.input === undefined || issue.input === null)) {
    return 'field_required';
  }
  switch (issue.code) {
    case 'invalid_type':
      return NUMBERS.has(issue.expected) ? 'number_invalid' : 'field_invalid';
    case 'too_small':
      if (NUMBERS.has(issue.origin)) return 'number_out_of_range';
      if (COLLECTIONS.has(issue.origin)) return 'too_few_items';
      if (issue.origin !== 'string' || issue.exact) return 'field_invalid';
      return issue.input === '' ? 'field_required' : 'too_short';
    case 'too_big':
      if (NUMBERS.has(issue.origin)) return 'number_out_of_range';
      if (COLLECTIONS.has(issue.origin)) return 'too_many_items';
      return issue.origin === 'string' && !issue.exact ? 'too_long' : 'field_invalid';
    case 'not_multiple_of':
      return 'number_invalid';
    case 'invalid_value':
      return 'choice_invalid';
    case 'unrecognized_keys':
      return 'unknown_field';
    default:
      // invalid_format, invalid_union, invalid_key, invalid_element, custom without a message
      return 'field_invalid';
  }
}

// Installed when the domain is loaded (its index imports this module, and package.json lists it
// under `sideEffects`), so every process and bundle that parses a domain schema has it. A schema's
// or a parse's own message still wins.
z.config({ customError: issueMessage });
