import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isValidBirthDate, parseBirthDate } from './birth-date.js';
import { pad } from './test/arbitraries.js';

/** A fixed "today" (local time) so the tests do not depend on the clock. */
const TODAY = new Date(2025, 5, 15, 12, 0, 0);

describe('parseBirthDate', () => {
  it.each([
    ['15/06/1980', { year: 1980, month: 6, day: 15, iso: '1980-06-15' }],
    ['01/01/1900', { year: 1900, month: 1, day: 1, iso: '1900-01-01' }],
    ['29/02/2000', { year: 2000, month: 2, day: 29, iso: '2000-02-29' }],
    ['29/02/2024', { year: 2024, month: 2, day: 29, iso: '2024-02-29' }],
    ['31/12/1999', { year: 1999, month: 12, day: 31, iso: '1999-12-31' }],
    ['15/06/2025', { year: 2025, month: 6, day: 15, iso: '2025-06-15' }],
    [' 15/06/1980 ', { year: 1980, month: 6, day: 15, iso: '1980-06-15' }],
    ['00/06/1980', { year: 1980, month: 6, day: null, iso: '1980-06-00' }],
    ['00/00/1980', { year: 1980, month: null, day: null, iso: '1980-00-00' }],
    ['00/06/2025', { year: 2025, month: 6, day: null, iso: '2025-06-00' }],
    ['00/00/2025', { year: 2025, month: null, day: null, iso: '2025-00-00' }],
    ['00/00/1900', { year: 1900, month: null, day: null, iso: '1900-00-00' }],
  ])('reads %j', (value, expected) => {
    expect(parseBirthDate(value, TODAY)).toEqual(expected);
  });

  it.each([
    ['', 'empty'],
    ['1980-06-15', 'ISO form'],
    ['15-06-1980', 'dashes'],
    ['15/6/1980', 'one-digit month'],
    ['5/06/1980', 'one-digit day'],
    ['15/06/80', 'two-digit year'],
    ['15/06/1980x', 'trailing text'],
    ['32/01/1980', 'day 32'],
    ['31/04/1980', 'April 31'],
    ['30/02/2000', 'February 30'],
    ['29/02/1900', '1900 is not a leap year'],
    ['29/02/2023', '2023 is not a leap year'],
    ['15/13/1980', 'month 13'],
    ['15/00/1980', 'a known day in an unknown month'],
    ['31/12/1899', 'before 1900'],
    ['00/00/1899', 'unknown date before 1900'],
    ['16/06/2025', 'tomorrow'],
    ['01/07/2025', 'next month'],
    ['00/07/2025', 'next month, day unknown'],
    ['00/00/2026', 'next year, day and month unknown'],
    ['15/06/9999', 'far future'],
    ['١٥/٠٦/١٩٨٠', 'Arabic-Indic digits'],
  ])('refuses %j (%s)', (value) => {
    expect(parseBirthDate(value, TODAY)).toBeNull();
  });

  it('accepts every calendar day from 1900 to today', () => {
    const min = new Date(1900, 0, 1).getTime();
    fc.assert(
      fc.property(fc.integer({ min, max: TODAY.getTime() }), (time) => {
        const date = new Date(time);
        const [day, month, year] = [date.getDate(), date.getMonth() + 1, date.getFullYear()];
        const typed = `${pad(day, 2)}/${pad(month, 2)}/${year}`;
        expect(parseBirthDate(typed, TODAY)).toEqual({
          year,
          month,
          day,
          iso: `${year}-${pad(month, 2)}-${pad(day, 2)}`,
        });
        expect(isValidBirthDate(`00/${pad(month, 2)}/${year}`, TODAY)).toBe(true);
        expect(isValidBirthDate(`00/00/${year}`, TODAY)).toBe(true);
      }),
    );
  });

  it('refuses every day after today', () => {
    const tomorrow = new Date(2025, 5, 16).getTime();
    fc.assert(
      fc.property(fc.integer({ min: tomorrow, max: new Date(2200, 0, 1).getTime() }), (time) => {
        const date = new Date(time);
        const typed = `${pad(date.getDate(), 2)}/${pad(date.getMonth() + 1, 2)}/${date.getFullYear()}`;
        return !isValidBirthDate(typed, TODAY);
      }),
    );
  });

  it('uses the current date by default', () => {
    const now = new Date();
    const typed = `${pad(now.getDate(), 2)}/${pad(now.getMonth() + 1, 2)}/${now.getFullYear()}`;
    expect(isValidBirthDate(typed)).toBe(true);
    expect(isValidBirthDate(`01/01/${now.getFullYear() + 1}`)).toBe(false);
  });
});
