import { describe, expect, it } from 'vitest';
import { safeInternalPath, safeTargetUri } from './safe-redirect';

const ORIGIN = 'https://portail.hygie.example';

describe('safeTargetUri', () => {
  it.each([
    ['/oidc/interaction/abc?x=1', `${ORIGIN}/oidc/interaction/abc?x=1`],
    [`${ORIGIN}/oidc/auth?client_id=a`, `${ORIGIN}/oidc/auth?client_id=a`],
  ])('follows %s', (target, expected) => {
    expect(safeTargetUri(target, ORIGIN)).toBe(expected);
  });

  it.each([
    '//evil.example/x',
    '/\\evil.example',
    '/%09/evil.example',
    '/\t/evil.example',
    'https://portail.hygie.example@evil.example/',
    'https://evil.example/oidc',
    'http://portail.hygie.example/oidc',
    'javascript:alert(1)',
    'oidc/relative',
    '',
    null,
  ])('drops %s', (target) => {
    expect(safeTargetUri(target, ORIGIN)).toBeNull();
  });
});

describe('safeInternalPath', () => {
  it('keeps a local path with its query and hash', () => {
    expect(safeInternalPath('/devices?sort=recent#top')).toBe('/devices?sort=recent#top');
  });

  it.each(['//evil.example', '/\\evil', 'https://evil.example/', 'devices', '/%0a/x'])(
    'drops %s',
    (value) => {
      expect(safeInternalPath(value)).toBeNull();
    },
  );
});
