import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hmac, hmacKeyOf } from './tokens.js';

describe('hmac', () => {
  it('is HMAC-SHA-256 keyed by the secret’s UTF-8 bytes (RFC 4231, test case 2)', () => {
    expect(
      Buffer.from(hmac('Jefe', 'what do ya want for nothing?'), 'base64url').toString('hex'),
    ).toBe('5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
    // A secret beyond ASCII: its UTF-8 bytes, as a text key always was.
    expect(hmac('clé-secrète', 'session:abc')).toBe(
      createHmac('sha256', Buffer.from('clé-secrète', 'utf8'))
        .update('session:abc')
        .digest('base64url'),
    );
  });

  it('imports each secret once, and each secret as its own key', () => {
    const first = hmacKeyOf('one secret');
    expect(hmacKeyOf('one secret')).toBe(first);
    expect(hmacKeyOf('another secret')).not.toBe(first);
    expect(hmac('one secret', 'value')).not.toBe(hmac('another secret', 'value'));
  });

  it('keeps a bounded number of secrets, and still answers for one it let go', () => {
    const first = hmacKeyOf('secret 0');
    const expected = hmac('secret 0', 'value');
    for (let i = 1; i <= 40; i++) hmacKeyOf(`secret ${i}`);
    expect(hmacKeyOf('secret 0')).not.toBe(first);
    expect(hmac('secret 0', 'value')).toBe(expected);
  });
});
