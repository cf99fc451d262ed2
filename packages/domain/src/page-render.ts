import type { Language } from './constants.js';
import type { PublicConfig } from './schemas/session.js';

/**
 * One page request the server asks the web client's renderer to draw (docs/web.md, "Pages drawn
 * by the server"): the server knows the language it negotiated and its configuration; the
 * renderer knows the pages, the brand rules and the HTML.
 */
export interface PageRenderRequest {
  /** The path and query asked for. */
  url: string;
  /** The host name the page was asked for at (a brand may be named by it). */
  hostname: string;
  /** `?l=`, else Accept-Language, else the default. */
  language: Language;
  config: PublicConfig;
  /** The built index.html, which the page's HTML fills. */
  template: string;
  /**
   * The built style sheets, by address (`/assets/index-….css`): their text. The page carries the
   * ones the template links in a `<style>`, rather than waiting for them before its first paint.
   */
  stylesheets: Readonly<Record<string, string>>;
}

/** The page's HTML; null for a page the server does not draw (the browser draws it). */
export type RenderPage = (request: PageRenderRequest) => Promise<string | null>;
