import { describe, expect, it } from 'vitest';
import { cguPublishInputSchema } from './security.js';

describe('publishing a terms version', () => {
  it.each([
    ['2026-02-28', true],
    ['2028-02-29', true],
    ['2026-02-29', false],
    ['2026-02-30', false],
    ['2026-04-31', false],
    ['2026-13-01', false],
    ['2026-1-01', false],
    ['01/03/2026', false],
    ['2026-03-01T00:00:00Z', false],
  ])('takes %s as a publication date: %s', (publishedAt, valid) => {
    expect(cguPublishInputSchema.safeParse({ version: '2026-03', publishedAt }).success).toBe(
      valid,
    );
  });

  it('needs a version of 1 to 40 characters (what users accept), trimmed; the date is optional', () => {
    expect(cguPublishInputSchema.parse({ version: ' 2026-03 ' })).toEqual({ version: '2026-03' });
    expect(cguPublishInputSchema.safeParse({ version: '  ' }).success).toBe(false);
    expect(cguPublishInputSchema.safeParse({ version: 'v'.repeat(41) }).success).toBe(false);
    expect(cguPublishInputSchema.safeParse({}).success).toBe(false);
  });
});
