import { createContext, useContext, type AnchorHTMLAttributes, type ComponentType } from 'react';
import type { Language, PublicConfig } from '@hygie/domain';

/**
 * What the login page's components read from the client around them: texts, links, the address's
 * parameters, the configuration. The whole client gives them from i18next, React
 * Router and TanStack Query (app/app-environment.tsx); the login page's island, which the browser
 * runs first on a page the server drew, gives them from the page itself without those libraries
 * (app/island/, docs/web.md). The components written against it serve both.
 */

/** Options of a text: its interpolation values, `count` for the plural forms. */
export type TextOptions = Readonly<Record<string, unknown>>;

/**
 * Where texts are read: an i18next instance, or the components' texts (methods, so that i18next's
 * instance is one).
 */
export interface TextSource {
  /** The text of `key` (`namespace:path`, `common` by default). */
  t(this: void, key: string): string;
  t(this: void, key: string, options: TextOptions): string;
  exists(this: void, key: string): boolean;
}

/** The translations of the current language: i18next's `t` and `exists`, or the island's. */
export interface Texts extends TextSource {
  readonly language: string;
}

/** An in-app link's props: an anchor's, with the address to go to. */
export interface AppLinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  to: string;
}

/** The parts of the public configuration the login page and its layout read. */
export type ShellConfig = Pick<
  PublicConfig,
  'contactEmail' | 'identityProviders' | 'franceConnectPlus'
>;

export interface ClientEnvironment {
  texts: Texts;
  /** Switches the interface language (remembered by the caller). */
  changeLanguage(this: void, language: Language): void;
  /** A link to a page of the portal. */
  Link: ComponentType<AppLinkProps>;
  /** A hook: the current address's query parameters. */
  useSearchParams(this: void): URLSearchParams;
  /** A hook: the public configuration, once known. */
  usePublicConfig(this: void): ShellConfig | undefined;
}

export const EnvironmentContext = createContext<ClientEnvironment | null>(null);

export function useEnvironment(): ClientEnvironment {
  const environment = useContext(EnvironmentContext);
  if (!environment) throw new Error('useEnvironment must be used inside <EnvironmentContext>');
  return environment;
}

/** The current language's texts. */
export function useTexts(): Texts {
  return useEnvironment().texts;
}

/** A link to a page of the portal: the router's in the whole client, the island's on its page. */
export function AppLink(props: AppLinkProps) {
  const { Link } = useEnvironment();
  return <Link {...props} />;
}
