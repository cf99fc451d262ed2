import { describe, expect, it } from 'vitest';
import { isAllowedPlatformUri, platformCreateInputSchema } from './platforms.js';

describe('platform URIs', () => {
  it.each([
    ['https://platform.example/callback', true],
    ['https://platform.example:8443/cb?tenant=a', true],
    ['http://localhost:8080/cb', true],
    ['http://127.0.0.1:9/cb', true],
    ['http://[::1]:9/cb', true],
    ['http://platform.example/cb', false],
    ['https://platform.example/cb#fragment', false],
    ['https://user:pw@platform.example/cb', false],
    ['javascript:alert(1)', false],
    ['/relative/cb', false],
    ['', false],
  ])('%s is allowed: %s', (uri, allowed) => {
    expect(isAllowedPlatformUri(uri)).toBe(allowed);
  });

  it('needs a name, a URL and at least one redirect URI', () => {
    expect(
      platformCreateInputSchema.safeParse({ name: 'X', url: 'https://x.example' }).success,
    ).toBe(false);
    expect(
      platformCreateInputSchema.safeParse({
        name: 'X',
        url: 'https://x.example',
        redirectUris: ['https://x.example/cb'],
      }).success,
    ).toBe(true);
  });
});
