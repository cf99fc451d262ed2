import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { DataKeyring } from './field-crypto.js';
import { blindIndex, DataKeyError, isSealed, open, seal } from './field-crypto.js';

const key = (id: string) => ({ id, key: randomBytes(32) });
const ring = (...keys: DataKeyring['keys']): DataKeyring => ({ keys, index: randomBytes(32) });

describe('sealed values', () => {
  const keys = ring(key('k1'));

  it('round-trips, with a fresh IV each time and the key id in the value', () => {
    const a = seal(keys, 'users.ins:u1', '295109912611193');
    const b = seal(keys, 'users.ins:u1', '295109912611193');
    expect(a).not.toBe(b);
    expect(a).toMatch(/^v1\.k1\.[\w-]{16}\.[\w-]+$/);
    expect(a).not.toContain('295109912611193');
    expect(isSealed(a)).toBe(true);
    expect(isSealed('295109912611193')).toBe(false);
    expect(open(keys, 'users.ins:u1', a)).toBe('295109912611193');
  });

  it('refuses another context, a changed byte, an unknown key and a wrong key', () => {
    const sealed = seal(keys, 'users.ins:u1', '295109912611193');
    expect(() => open(keys, 'users.parent_ins:u1', sealed)).toThrow(DataKeyError);
    expect(() => open(keys, 'users.ins:u2', sealed)).toThrow(DataKeyError);
    const [format, id, iv, body = ''] = sealed.split('.');
    const flipped = `${body.startsWith('A') ? 'B' : 'A'}${body.slice(1)}`;
    expect(() => open(keys, 'users.ins:u1', [format, id, iv, flipped].join('.'))).toThrow(
      DataKeyError,
    );
    expect(() => open(ring(key('k2')), 'users.ins:u1', sealed)).toThrow(/"k1", which is not/);
    expect(() => open(ring(key('k1')), 'users.ins:u1', sealed)).toThrow(/wrong key/);
    expect(() => open(keys, 'users.ins:u1', 'v1.k1.short')).toThrow(DataKeyError);
  });

  it('opens with any configured key and seals with the first', () => {
    const old = key('old');
    const before = seal(ring(old), 'c', 'value');
    const rotated = ring(key('new'), old);
    expect(open(rotated, 'c', before)).toBe('value');
    expect(seal(rotated, 'c', 'value')).toMatch(/^v1\.new\./);
  });
});

describe('the blind index', () => {
  it('is stable for one key and purpose, and differs with the key or the purpose', () => {
    const keys = ring(key('k1'));
    const index = blindIndex(keys, 'users.ins', '295109912611193');
    expect(blindIndex(keys, 'users.ins', '295109912611193')).toBe(index);
    expect(index).toMatch(/^[\w-]{43}$/);
    expect(blindIndex(keys, 'users.parent_ins', '295109912611193')).not.toBe(index);
    expect(blindIndex(ring(key('k1')), 'users.ins', '295109912611193')).not.toBe(index);
  });
});
