import { describe, expect, it } from 'vitest';
import { safeInternalPath, safeTargetUri } from './redirects.js';

const origin = 'https://portal.example.fr';

describe('safeTargetUri', () => {
  it.each([
    ['/services', 'https://portal.example.fr/services'],
    ['/oidc/interaction/abc?x=1', 'https://portal.example.fr/oidc/interaction/abc?x=1'],
    ['https://portal.example.fr/profile', 'https://portal.example.fr/profile'],
    ['HTTPS://portal.example.fr/profile', 'https://portal.example.fr/profile'],
    [
      '/oidc/auth?client_id=a&scope=openid%20profile',
      'https://portal.example.fr/oidc/auth?client_id=a&scope=openid%20profile',
    ],
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
    'x'.repeat(2049),
  ])('drops %j', (target) => {
    expect(safeTargetUri(target, origin)).toBeNull();
  });

  // The server's copy kept these and the web's dropped them; security.md drops `/%09/evil`, and a
  // target that is not a path or an absolute URL of the origin does not "have the API's origin".
  it.each([
    ['an encoded tab before a second slash', '/%09/evil.example'],
    ['an encoded newline', '/%0a/evil.example'],
    ['an encoded backslash', '/%5Cevil.example'],
    ['an encoded second slash', '/%2Fevil.example'],
    ['a malformed escape', '/%E0%A4%A'],
    ['a relative path without its leading slash', 'oidc/relative'],
    ['a space', '/services now'],
    ['a backslash in the query', '/services?x=\\evil'],
  ])('drops a target with %s (the two copies disagreed)', (_case, target) => {
    expect(safeTargetUri(target, origin)).toBeNull();
  });

  it('drops non-strings', () => {
    expect(safeTargetUri(undefined, origin)).toBeNull();
    expect(safeTargetUri(null, origin)).toBeNull();
    expect(safeTargetUri(['/a'], origin)).toBeNull();
  });
});

describe('safeInternalPath', () => {
  it('keeps a local path with its query and hash', () => {
    expect(safeInternalPath('/devices?sort=recent#top')).toBe('/devices?sort=recent#top');
  });

  it.each(['//evil.example', '/\\evil', 'https://evil.example/', 'devices', '/%0a/x', null])(
    'drops %s',
    (value) => {
      expect(safeInternalPath(value)).toBeNull();
    },
  );
});
