import { createContext, useContext, type CSSProperties } from 'react';
import {
  asBrand,
  BRAND_COLORS,
  BRAND_NAMES,
  brandOfAddress,
  DEFAULT_BRAND,
  type Brand,
} from '@hygie/domain';
import { readStorage, writeStorage } from './storage';

export const BRANDING_QUERY_PARAM = 'branding';
export const BRANDING_STORAGE_KEY = 'branding';

export interface BrandSources {
  /** The page's query string (`?branding=telecare`). */
  search: string;
  hostname: string;
  pathname: string;
  readSession: (key: string) => string | null;
  writeSession: (key: string, value: string) => void;
}

/**
 * The brand of this visit (spec §1): `?branding=` (remembered for the session), else a page
 * address mentioning "telecare" (host name or path), else the default brand.
 */
export function resolveBrand(sources: BrandSources): Brand {
  const requested = asBrand(new URLSearchParams(sources.search).get(BRANDING_QUERY_PARAM));
  if (requested) {
    sources.writeSession(BRANDING_STORAGE_KEY, requested);
    return requested;
  }
  const remembered = asBrand(sources.readSession(BRANDING_STORAGE_KEY));
  if (remembered) return remembered;
  return brandOfAddress(sources.hostname, sources.pathname);
}

export function resolveBrandFromWindow(win: Window = window): Brand {
  return resolveBrand({
    search: win.location.search,
    hostname: win.location.hostname,
    pathname: win.location.pathname,
    readSession: (key) => readStorage('sessionStorage', key),
    writeSession: (key, value) => writeStorage('sessionStorage', key, value),
  });
}

export const BrandContext = createContext<Brand>(DEFAULT_BRAND);

export function useBrand(): { brand: Brand; name: string; logoUrl: string } {
  const brand = useContext(BrandContext);
  return { brand, name: BRAND_NAMES[brand], logoUrl: `/brands/${brand}.svg` };
}

/**
 * The brand's colours as the custom properties of app/base.css, from the same BRAND_COLORS as the
 * MUI theme (lib/theme.ts): a brand colour is written once.
 */
export function brandStyle(brand: Brand): CSSProperties & Record<`--hy-${string}`, string> {
  const colors = BRAND_COLORS[brand];
  return { '--hy-primary': colors.primary, '--hy-secondary': colors.secondary };
}
