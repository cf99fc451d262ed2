import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { emailSchema, VALIDATION_MESSAGES } from '../index.js';
import { ISSUE_MESSAGES } from './issue-messages.js';

/** The messages of a failed parse, by dotted path. */
function messagesOf(schema: z.ZodType, input: unknown): Record<string, string> {
  const result = schema.safeParse(input);
  if (result.success) throw new Error('the input was accepted');
  return Object.fromEntries(result.error.issues.map((i) => [i.path.join('.'), i.message]));
}

describe('the messages of schema parts that name none', () => {
  it.each([
    ['a missing string', z.object({ a: z.string() }), {}, 'field_required'],
    ['a null string', z.object({ a: z.string() }), { a: null }, 'field_required'],
    ['a number for a string', z.object({ a: z.string() }), { a: 1 }, 'field_invalid'],
    ['a string for a boolean', z.object({ a: z.boolean() }), { a: 'yes' }, 'field_invalid'],
    ['a missing boolean', z.object({ a: z.boolean() }), {}, 'field_required'],
    ['a string for a number', z.object({ a: z.number() }), { a: '1' }, 'number_invalid'],
    ['a fraction for an integer', z.object({ a: z.number().int() }), { a: 1.5 }, 'number_invalid'],
    [
      'a letter for a coerced number',
      z.object({ a: z.coerce.number() }),
      { a: 'x' },
      'number_invalid',
    ],
    [
      'a number over its maximum',
      z.object({ a: z.number().max(3) }),
      { a: 4 },
      'number_out_of_range',
    ],
    [
      'a number under its minimum',
      z.object({ a: z.int().min(1) }),
      { a: 0 },
      'number_out_of_range',
    ],
    ['a not multiple', z.object({ a: z.number().multipleOf(5) }), { a: 7 }, 'number_invalid'],
    ['an over-long string', z.object({ a: z.string().max(3) }), { a: 'abcd' }, 'too_long'],
    ['an over-short string', z.object({ a: z.string().min(3) }), { a: 'ab' }, 'too_short'],
    ['an empty required string', z.object({ a: z.string().min(1) }), { a: '' }, 'field_required'],
    [
      'a string of the wrong length',
      z.object({ a: z.string().length(6) }),
      { a: '12' },
      'field_invalid',
    ],
    [
      'too many items',
      z.object({ a: z.array(z.string()).max(1) }),
      { a: ['x', 'y'] },
      'too_many_items',
    ],
    ['too few items', z.object({ a: z.array(z.string()).min(1) }), { a: [] }, 'too_few_items'],
    [
      'an item of the wrong type',
      z.object({ a: z.array(z.string()) }),
      { a: [1] },
      'field_invalid',
    ],
    ['an unknown choice', z.object({ a: z.enum(['x', 'y']) }), { a: 'z' }, 'choice_invalid'],
    ['a missing choice', z.object({ a: z.enum(['x', 'y']) }), {}, 'field_required'],
    ['another literal', z.object({ a: z.literal(true) }), { a: false }, 'choice_invalid'],
    ['a malformed uuid', z.object({ a: z.uuid() }), { a: 'nope' }, 'field_invalid'],
    [
      'a pattern not matched',
      z.object({ a: z.string().regex(/^\d+$/) }),
      { a: 'x' },
      'field_invalid',
    ],
    [
      'no union option',
      z.object({ a: z.union([z.string(), z.number()]) }),
      { a: true },
      'field_invalid',
    ],
    [
      'a bad record key',
      z.object({ a: z.record(z.string().regex(/^k/), z.string()) }),
      { a: { j: 'v' } },
      'field_invalid',
    ],
    [
      'a refinement without a message',
      z.object({ a: z.string().refine(() => false) }),
      { a: 'x' },
      'field_invalid',
    ],
    ['a missing body', z.object({ a: z.string() }), undefined, 'field_required'],
  ])('%s reads as its key', (_, schema, input, message) => {
    expect(Object.values(messagesOf(schema, input))).toEqual([message]);
  });

  it('an unknown key of a strict object reads unknown_field', () => {
    const result = z.strictObject({ a: z.string() }).safeParse({ a: 'x', b: 1 });
    expect(result.error?.issues).toMatchObject([
      { code: 'unrecognized_keys', keys: ['b'], message: 'unknown_field' },
    ]);
  });

  it('keeps the messages a schema or a parse gives', () => {
    expect(messagesOf(emailSchema, 'nope')).toEqual({ '': 'email_invalid' });
    expect(messagesOf(z.string().max(1, 'email_too_long'), 'ab')).toEqual({ '': 'email_too_long' });
    const english = z.string().safeParse(1, { error: z.locales.en().localeError });
    expect(english.error?.issues[0]?.message).toMatch(/^Invalid input: expected string/);
  });

  it('every key is a validation message', () => {
    expect(ISSUE_MESSAGES.filter((m) => !VALIDATION_MESSAGES.includes(m))).toEqual([]);
    expect(new Set(VALIDATION_MESSAGES).size).toBe(VALIDATION_MESSAGES.length);
  });
});
