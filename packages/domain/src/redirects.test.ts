import { describe, expect, it } from 'vitest';
import { safeTargetUri } from './redirects.js';

const origin = 'https://portal.example.fr';

describe('safeTargetUri', () => {
  it.each([
    ['/services', 'https://portal.example.fr/services'],
    ['/oidc/interaction/abc?x=1', 'https://portal.example.fr/oidc/interaction/abc?x=1'],
    ['https://portal.example.fr/profile', 'https://portal.example.fr/profile'],
    ['/%09/evil', 'https://portal.example.fr/%09/evil'],
  ])('keeps %s', (target, expected) => {
    expect(safeTargetUri(target, origin)).toBe(expected);
  });

  it.each([
    '//evil.example',
    '/\\evil.example',
    '/\t/evil.example',
    'https://portal.example.fr@evil.example',
    'https://api@evil.example',
    'https://evil.example/',
    'http://portal.example.fr/',
    'javascript:alert(1)',
    'data:text/html,x',
    '',
  ])('drops %j', (target) => {
    expect(safeTargetUri(target, origin)).toBeNull();
  });

  it('drops non-strings', () => {
    expect(safeTargetUri(undefined, origin)).toBeNull();
    expect(safeTargetUri(['/a'], origin)).toBeNull();
  });
});
