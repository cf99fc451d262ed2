import { describe, expect, it } from 'vitest';
import { cguPublishInputSchema } from './security.js';

const SECTION = [{ title: 'Objet', body: 'Le portail…' }];
const TEXTS = { fr: SECTION, en: SECTION, ar: SECTION };

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
    expect(
      cguPublishInputSchema.safeParse({ version: '2026-03', publishedAt, texts: TEXTS }).success,
    ).toBe(valid);
  });

  it('needs a version of 1 to 40 characters (what users accept), trimmed; the date is optional', () => {
    expect(cguPublishInputSchema.parse({ version: ' 2026-03 ', texts: TEXTS })).toEqual({
      version: '2026-03',
      texts: TEXTS,
    });
    expect(cguPublishInputSchema.safeParse({ version: '  ', texts: TEXTS }).success).toBe(false);
    expect(cguPublishInputSchema.safeParse({ version: 'v'.repeat(41), texts: TEXTS }).success).toBe(
      false,
    );
    expect(cguPublishInputSchema.safeParse({}).success).toBe(false);
  });

  it('needs the text in every language, each with at least one titled section', () => {
    const without = (language: 'fr' | 'en' | 'ar') =>
      Object.fromEntries(Object.entries(TEXTS).filter(([key]) => key !== language));
    for (const language of ['fr', 'en', 'ar'] as const) {
      expect(
        cguPublishInputSchema.safeParse({ version: '2026-03', texts: without(language) }).success,
      ).toBe(false);
    }
    const empty = { ...TEXTS, ar: [] };
    expect(cguPublishInputSchema.safeParse({ version: '2026-03', texts: empty }).success).toBe(
      false,
    );
    const untitled = { ...TEXTS, en: [{ title: ' ', body: 'x' }] };
    expect(cguPublishInputSchema.safeParse({ version: '2026-03', texts: untitled }).success).toBe(
      false,
    );
  });
});
