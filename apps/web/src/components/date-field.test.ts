import { describe, expect, it } from 'vitest';
import { formatDateInput } from './date-field';

describe('date typing', () => {
  it.each([
    ['1', '1'],
    ['15', '15'],
    ['150', '15/0'],
    ['1504', '15/04'],
    ['15041', '15/04/1'],
    ['15041985', '15/04/1985'],
    ['15/04/1985', '15/04/1985'],
    ['15-04-1985', '15/04/1985'],
    ['1504198512', '15/04/1985'],
    ['00/00/1985', '00/00/1985'],
    ['', ''],
  ])('%j reads %j', (typed, shown) => {
    expect(formatDateInput(typed)).toBe(shown);
  });
});
