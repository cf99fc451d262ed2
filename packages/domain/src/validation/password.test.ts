import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COMMON_PASSWORD_COUNT, isCommonPassword, passwordBases } from './common-passwords.js';
import { checkPassword, normalizePassword } from './password.js';
import type { PasswordContext, PasswordProblem } from './password.js';

describe('checkPassword', () => {
  it.each([
    'Xk9pLm2qw',
    'Correct-Horse-7-Battery',
    'Ünïcödé9x',
    'ÉLÉPHANT9a',
    'x'.repeat(125) + 'A1b',
  ])('accepts %j', (pw) => {
    expect(checkPassword(pw)).toEqual([]);
  });

  it.each<[string, PasswordProblem[]]>([
    ['', ['too_short', 'missing_digit', 'missing_lowercase', 'missing_uppercase', 'too_weak']],
    ['Xk9pLm2', ['too_short', 'too_weak']],
    ['xk9plm2qwe', ['missing_uppercase']],
    ['XK9PLM2QWE', ['missing_lowercase']],
    ['XkapLmbqw', ['missing_digit']],
    ['12345678', ['missing_lowercase', 'missing_uppercase', 'too_weak', 'too_common']],
    ['Xk9pLm2q', ['too_weak']],
    ['Xk9pLm2qw'.repeat(16) + 'x', ['too_long']],
    ['Password1', ['too_common']],
    ['Azerty123', ['too_common']],
    ['Motdepasse1', ['too_common']],
    ['Bonjour2024', ['too_common']],
    ['Marseille13', ['too_common']],
    ['PASSWORD1a', []],
  ])('reports %j as %j', (pw, problems) => {
    expect(checkPassword(pw)).toEqual(problems);
  });

  it.each<[string, PasswordContext]>([
    ['Jean.Dupont9', { email: 'jean.dupont@example.fr' }],
    ['Xx9dupontXx', { email: 'jean.dupont@example.fr' }],
    ['MyJeanne77', { names: ['Jeanne'] }],
    ['Xx9HELENEXx', { names: ['Hélène'] }],
    ['Xx9hélèneXx', { names: ['Helene'] }],
    ['Gaspard2024!', { names: ['Jean-Gaspard', 'Martin'] }],
    ['Xx9MartinXx', { names: ['Jean-Pierre', 'Martin'] }],
    ['Xx9GoffXx', { names: ['Le Goff'] }],
    ['Luc2024!x', { names: ['Luc'] }],
    ['Xx9-Eva-9X', { names: ['Eva'] }],
    ['Jea-2024x', { email: 'jea@example.fr' }],
    ['Xx9jdupont', { email: 'j.dupont+news@example.fr' }],
    ['Jdupont2024x', { email: 'jdupont75@example.fr' }],
    ['Xx9MARIE.LOU', { email: 'marie.lou@example.fr' }],
  ])('reports personal info in %j for %j', (pw, context) => {
    expect(checkPassword(pw, context)).toEqual(['contains_personal_info']);
  });

  it.each<[string, PasswordContext, string]>([
    ['Xk9pLm2qwAb', { email: 'ab@example.fr' }, 'local part under 3 characters'],
    ['Xk9pLm2qwLi', { names: ['Li'] }, 'name under 3 characters'],
    ['Xk9pLm2qw', { email: 'jean@example.fr', names: ['Dupont'] }, 'nothing personal'],
    ['Example9fr', { email: 'jean@example.fr' }, 'the domain is not personal'],
    ['Xk9pLm2qw', { names: [] }, 'no names'],
    ['Jeanne2024y', { email: 'jea@example.fr' }, 'a 3-letter local part inside a longer word'],
    ['Jean2024x', { email: 'jea@example.fr', names: ['Martin'] }, 'the e-mail of jea@ is not Jean'],
    ['Lucky2024x', { names: ['Luc'] }, 'a 3-letter name inside a longer word'],
    ['Evaluation9X', { names: ['Eva'] }, 'a 3-letter name at the start of a word'],
    ['Xk9pLm2qwNews', { email: 'j.dupont+ne@example.fr' }, 'a 2-letter tag'],
  ])('accepts %j for %j (%s)', (pw, context) => {
    expect(checkPassword(pw, context)).toEqual([]);
  });

  it('measures the length after NFKC', () => {
    // "ﬁ" (one ligature) becomes "fi" (two letters) under NFKC.
    expect(checkPassword('Xk9ﬁL-2')).toEqual([]);
    // Seven characters once the combining accent is composed.
    expect(checkPassword('Xk9pLme\u0301')).toEqual(['too_short', 'too_weak']);
  });

  it('never reports too_short for 8 or more characters after NFKC', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ minLength: 8 }), fc.string({ unit: 'binary', minLength: 8 })),
        (pw) => {
          fc.pre([...normalizePassword(pw)].length >= 8);
          return !checkPassword(pw).includes('too_short');
        },
      ),
    );
  });

  it('never reports too_long up to 128 characters', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 128 }), (pw) => !checkPassword(pw).includes('too_long')),
    );
  });

  it('reports too_long beyond 128 characters', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 129, maxLength: 300 }), (pw) =>
        checkPassword(pw).includes('too_long'),
      ),
    );
  });

  it('does not truncate a 73-character password (beyond bcrypt’s 72 bytes)', () => {
    const pw = `${'Ab1'.repeat(24)}Z`;
    expect(pw).toHaveLength(73);
    expect(normalizePassword(pw)).toBe(pw);
    expect(checkPassword(pw)).toEqual([]);
    // Only the 73rd character differs: the two must stay different.
    expect(normalizePassword(pw)).not.toBe(normalizePassword(`${pw.slice(0, 72)}Y`));
  });

  it('keeps every character of any password under NFKC (never shortens ASCII)', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 73, maxLength: 200 }),
        (pw) => normalizePassword(pw) === pw,
      ),
    );
  });
});

describe('normalizePassword', () => {
  it.each([
    ['Ｐａｓｓ１', 'Pass1'],
    ['ﬁ', 'fi'],
    ['e\u0301', 'é'],
    ['Å', 'Å'],
  ])('maps %j to %j', (pw, normalized) => {
    expect(normalizePassword(pw)).toBe(normalized);
  });

  it('is idempotent', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (pw) => {
        const once = normalizePassword(pw);
        return normalizePassword(once) === once;
      }),
    );
  });
});

describe('isCommonPassword', () => {
  it.each([
    'Password1',
    'Azerty123',
    'Motdepasse1',
    'Bonjour2024',
    'Marseille13',
    '123456',
    'azerty',
    'PASSWORD',
    'Soleil2024',
    'Jetaime1!',
    'Ｐａｓｓｗｏｒｄ１',
  ])('lists %j', (pw) => {
    expect(isCommonPassword(pw)).toBe(true);
  });

  it.each(['Passw0rd!', 'P@ssw0rd123', ' Password1', '!Soleil2024', 'Liberté1', 'Hygie2024!'])(
    'lists %j once undressed (symbols and digits around it, look-alikes, accents)',
    (pw) => {
      expect(isCommonPassword(pw)).toBe(true);
    },
  );

  it.each(['Xk9pLm2qw', 'Password1x', 'Pass-word-of-mine-7', ''])('does not list %j', (pw) => {
    expect(isCommonPassword(pw)).toBe(false);
  });

  it('takes the dictionary it is given', () => {
    const dictionary = new Set(['liverpool']);
    expect(isCommonPassword('Liverpool1', dictionary)).toBe(true);
    expect(isCommonPassword('L1verp00l!', dictionary)).toBe(true);
    expect(isCommonPassword('Password1', dictionary)).toBe(false);
  });

  it('reads a password back to the words it dresses up', () => {
    expect(passwordBases('P@ssw0rd!')).toEqual(['p@ssw0rd', 'password']);
    expect(passwordBases('He11o2024')).toEqual(['he11o', 'heiio', 'hello']);
    expect(passwordBases('12345678')).toEqual([]);
  });

  it('holds a few hundred passwords', () => {
    expect(COMMON_PASSWORD_COUNT).toBeGreaterThanOrEqual(300);
    expect(COMMON_PASSWORD_COUNT).toBeLessThanOrEqual(2000);
  });
});
