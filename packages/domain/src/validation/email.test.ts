import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isValidEmail, normalizeEmail } from './email.js';

const longDomain = (length: number): string => {
  // Labels of 50 characters joined by dots, ending in ".fr", of exactly `length` characters.
  const labels: string[] = [];
  let remaining = length - 3;
  while (remaining > 0) {
    const size = Math.min(50, remaining);
    labels.push('d'.repeat(size));
    remaining -= size + 1;
  }
  return `${labels.join('.')}.fr`;
};

describe('isValidEmail', () => {
  it.each([
    'jean.dupont@example.fr',
    'a@b.co',
    'jean+tag@sub.example.fr',
    "o'brien@example.ie",
    'UPPER.Case@Example.FR',
    'x_y-z@my-host.example.com',
    "!#$%&'*+/=?^_`{|}~-@example.fr",
    'jean@xn--caf-dma.fr',
    'jean@example.xn--p1ai',
    'jean@123.example.fr',
    `${'l'.repeat(64)}@example.fr`,
  ])('accepts %j', (email) => {
    expect(isValidEmail(email)).toBe(true);
  });

  it.each([
    ['', 'empty'],
    ['abc', 'no @'],
    ['@example.fr', 'empty local part'],
    ['jean@', 'empty domain'],
    ['jean@example', 'domain without a dot'],
    ['jean@@example.fr', 'two @'],
    ['a@b@example.fr', 'two @'],
    ['jean dupont@example.fr', 'inner space'],
    [' jean@example.fr', 'leading space'],
    ['jean@example.fr ', 'trailing space'],
    ['jean@exa mple.fr', 'space in the domain'],
    ['.jean@example.fr', 'leading dot'],
    ['jean.@example.fr', 'trailing dot'],
    ['jean..dupont@example.fr', 'double dot'],
    ['"jean dupont"@example.fr', 'quoted local part'],
    ['jean@-example.fr', 'label starting with a hyphen'],
    ['jean@example-.fr', 'label ending with a hyphen'],
    ['jean@example..fr', 'empty label'],
    ['jean@.example.fr', 'leading dot in the domain'],
    ['jean@example.fr.', 'trailing dot in the domain'],
    ['jean@exa_mple.fr', 'underscore in the domain'],
    ['jean@example.f', 'one-letter top-level domain'],
    ['jean@example.123', 'numeric top-level domain'],
    ['jean@[192.168.0.1]', 'address literal'],
    ['jéan@example.fr', 'non-ASCII local part'],
    ['jean@café.fr', 'Unicode domain (must be punycode)'],
    [`${'l'.repeat(65)}@example.fr`, 'local part of 65 characters'],
    [`jean@${'l'.repeat(64)}.fr`, 'label of 64 characters'],
    [`jean@${longDomain(176)}`, '181 characters'],
  ])('refuses %j (%s)', (email) => {
    expect(isValidEmail(email)).toBe(false);
  });

  it('accepts exactly 180 characters and refuses 181', () => {
    const at180 = `jean@${longDomain(175)}`;
    expect(at180).toHaveLength(180);
    expect(isValidEmail(at180)).toBe(true);
    expect(isValidEmail(`j${at180}`)).toBe(false);
  });

  it('accepts generated RFC addresses of at most 180 characters', () => {
    fc.assert(
      fc.property(
        fc.emailAddress().filter((email) => email.length <= 180),
        (email) => isValidEmail(email),
      ),
    );
  });

  it('refuses any address with whitespace in it', () => {
    fc.assert(
      fc.property(
        fc.emailAddress(),
        fc.nat(),
        fc.constantFrom(' ', '\t', '\n', '\u00a0'),
        (email, at, space) => {
          const index = at % (email.length + 1);
          return !isValidEmail(email.slice(0, index) + space + email.slice(index));
        },
      ),
    );
  });
});

describe('normalizeEmail', () => {
  it('trims and lower-cases', () => {
    expect(normalizeEmail('  Jean.Dupont@Example.FR ')).toBe('jean.dupont@example.fr');
  });

  it('is idempotent', () => {
    fc.assert(
      fc.property(
        fc.string(),
        (value) => normalizeEmail(normalizeEmail(value)) === normalizeEmail(value),
      ),
    );
  });
});
