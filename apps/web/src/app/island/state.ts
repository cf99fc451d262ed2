import { asBrand, asLanguage, type Brand, type Language, type PublicConfig } from '@hygie/domain';
import type { ShellConfig } from '../../lib/environment';

/** The element of a page drawn by the server that tells the browser what it was drawn with. */
export const PAGE_STATE_ID = 'hy-page-state';

/** What the island reads of the page's state (app/page-state.ts has the whole, with zod). */
export interface IslandState {
  language: Language;
  brand: Brand;
  config: ShellConfig;
}

/** What the island reads of the public configuration. */
export function shellConfigOf({
  contactEmail,
  identityProviders,
  franceConnectPlus,
}: Pick<PublicConfig, keyof ShellConfig>): ShellConfig {
  return {
    contactEmail,
    identityProviders,
    ...(franceConnectPlus !== undefined && { franceConnectPlus }),
  };
}

function field(value: object, name: string): unknown {
  return Object.getOwnPropertyDescriptor(value, name)?.value;
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/**
 * The state the server wrote in `doc`, as far as the island reads it, if well formed: checked by
 * hand, not with zod's schema (page-state.ts), which the island's first load does not carry. The
 * whole client reads the whole state with the schema once loaded.
 */
export function readIslandState(doc: Document): IslandState | null {
  const text = doc.getElementById(PAGE_STATE_ID)?.textContent;
  if (!text) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const language = asLanguage(field(parsed, 'language'));
  const brand = asBrand(field(parsed, 'brand'));
  const config = field(parsed, 'config');
  if (!language || !brand || typeof config !== 'object' || config === null) return null;
  const contactEmail = field(config, 'contactEmail');
  const identityProviders = field(config, 'identityProviders');
  const franceConnectPlus = field(config, 'franceConnectPlus');
  if (
    typeof contactEmail !== 'string' ||
    !isStringList(identityProviders) ||
    (franceConnectPlus !== undefined && typeof franceConnectPlus !== 'boolean')
  ) {
    return null;
  }
  return {
    language,
    brand,
    config: shellConfigOf({ contactEmail, identityProviders, franceConnectPlus }),
  };
}
