import { describe, expect, it } from 'vitest';
import { BRANDING_STORAGE_KEY, resolveBrand, type BrandSources } from './brand';

function sources(overrides: Partial<BrandSources> = {}, session = new Map<string, string>()) {
  return {
    session,
    value: {
      search: '',
      hostname: 'portail.hygie.example',
      pathname: '/security/login',
      readSession: (key: string) => session.get(key) ?? null,
      writeSession: (key: string, value: string) => void session.set(key, value),
      ...overrides,
    } satisfies BrandSources,
  };
}

describe('brand resolution (spec §1)', () => {
  it('defaults to hygie', () => {
    expect(resolveBrand(sources().value)).toBe('hygie');
  });

  it('takes ?branding= and remembers it for the session', () => {
    const { value, session } = sources({ search: '?branding=telecare' });
    expect(resolveBrand(value)).toBe('telecare');
    expect(session.get(BRANDING_STORAGE_KEY)).toBe('telecare');
    // A later page without the parameter keeps the brand.
    expect(resolveBrand({ ...value, search: '' })).toBe('telecare');
  });

  it('ignores an unknown ?branding= value', () => {
    const { value, session } = sources({ search: '?branding=evil' });
    expect(resolveBrand(value)).toBe('hygie');
    expect(session.size).toBe(0);
  });

  it('lets ?branding=hygie override a remembered or address brand', () => {
    const session = new Map([[BRANDING_STORAGE_KEY, 'telecare']]);
    const { value } = sources({ search: '?branding=hygie', hostname: 'telecare.example' }, session);
    expect(resolveBrand(value)).toBe('hygie');
  });

  it('picks telecare when the host name mentions it', () => {
    expect(resolveBrand(sources({ hostname: 'portail.TeleCare.example' }).value)).toBe('telecare');
  });

  it('picks telecare when the path mentions it', () => {
    expect(resolveBrand(sources({ pathname: '/telecare/security/login' }).value)).toBe('telecare');
  });
});
