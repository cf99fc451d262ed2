import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectUsernameKind } from './username.js';
import type { UsernameKind } from './username.js';
import { luhnNumber, validIns } from './test/arbitraries.js';

describe('detectUsernameKind', () => {
  it.each<[string, UsernameKind]>([
    ['jean.dupont@example.fr', 'email'],
    ['  Jean.Dupont@Example.FR ', 'email'],
    ['06 12 34 56 78', 'phone'],
    ['+33612345678', 'phone'],
    ['+590690123456', 'phone'],
    ['0690123456', 'phone'],
    ['295109912611193', 'ins'],
    ['2 95 10 99 126 111 93', 'ins'],
    ['253072b07300470', 'ins'],
    ['10002909371', 'rpps'],
    ['810002909371', 'national_professional_id'],
    ['0123456789', 'national_professional_id'],
    ['0612345678', 'phone'],
    ['jean@', 'unknown'],
    ['jean.dupont', 'unknown'],
    ['295109912611199', 'unknown'],
    ['10002727378', 'unknown'],
    ['810002727378', 'unknown'],
    ['0140000000', 'national_professional_id'],
    ['', 'unknown'],
    ['   ', 'unknown'],
  ])('reads %j as %s', (value, kind) => {
    expect(detectUsernameKind(value)).toBe(kind);
  });

  it('reads any generated address as an e-mail', () => {
    fc.assert(
      fc.property(
        fc.emailAddress().filter((email) => email.length <= 180),
        (email) => detectUsernameKind(email) === 'email',
      ),
    );
  });

  it('reads any valid INS as an INS', () => {
    fc.assert(fc.property(validIns, (ins) => detectUsernameKind(ins) === 'ins'));
  });

  it('reads any 11-digit Luhn number as an RPPS, and 8 + it as a national id', () => {
    fc.assert(
      fc.property(luhnNumber(11), (rpps) => {
        expect(detectUsernameKind(rpps)).toBe('rpps');
        expect(detectUsernameKind(`8${rpps}`)).toBe('national_professional_id');
      }),
    );
  });
});
