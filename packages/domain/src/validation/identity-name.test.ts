import { describe, expect, it } from 'vitest';
import { normalizeIdentityName } from './names.js';

describe('normalizeIdentityName', () => {
  it('compares names as INS traits: no accents, capitals, hyphens and apostrophes as spaces', () => {
    expect(normalizeIdentityName('Jean-Pierre')).toBe('JEAN PIERRE');
    expect(normalizeIdentityName('  jean   pierre ')).toBe('JEAN PIERRE');
    expect(normalizeIdentityName('Zoé')).toBe(normalizeIdentityName('ZOE'));
    expect(normalizeIdentityName('D’Artagnan')).toBe('D ARTAGNAN');
    expect(normalizeIdentityName("d'artagnan")).toBe('D ARTAGNAN');
  });

  it('keeps different names different', () => {
    expect(normalizeIdentityName('Jeanne')).not.toBe(normalizeIdentityName('Jeanne Marie'));
    expect(normalizeIdentityName('Martin')).not.toBe(normalizeIdentityName('Martine'));
  });
});
