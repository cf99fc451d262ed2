import { describe, expect, it } from 'vitest';
import { redactUrl } from './redact.js';

describe('a URL for the logs', () => {
  it.each([
    ['/api/me', '/api/me'],
    [
      '/security/first-login?personIdentifier=abc&code=S3CRET',
      '/security/first-login?personIdentifier=…&code=…',
    ],
    ['/api/admin/users?q=durand', '/api/admin/users?q=…'],
    ['/oidc/auth?client_id=x&&state=y', '/oidc/auth?client_id=…&state=…'],
    ['/x?', '/x?'],
  ])('%s → %s', (url, logged) => {
    expect(redactUrl(url)).toBe(logged);
  });
});
