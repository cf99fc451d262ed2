import { StrictMode } from 'react';
import { flushSync } from 'react-dom';
import { createRoot, type Root } from 'react-dom/client';
import { createBrowserRouter, matchRoutes, RouterProvider, type RouteObject } from 'react-router';
import { asLanguage, type CurrentUser, type Language } from '@hygie/domain';
import { resolveBrandFromWindow } from '../lib/brand';
import { configQueryOptions, seedConfig } from '../lib/config';
import { queueEarlyErrors } from '../lib/error-reporting';
import { ME_QUERY_KEY, meQueryOptions } from '../lib/current-user';
import { detectLanguageFromWindow } from '../lib/language';
import type { AppServices } from '../lib/services';
import { completeSignIn } from '../lib/sign-in';
import { App } from './app';
import { createI18nInstance, FIRST_NAMESPACES, initI18n } from './i18n';
import { readPageState, type PageState } from './page-state';
import { routes } from './routes';
import { createAppServices } from './services';

/** Starts loading the lazy routes `pathname` matches (their chunks and translations). */
async function loadMatchedRoutes(table: RouteObject[], pathname: string): Promise<void> {
  await Promise.all(
    (matchRoutes(table, pathname) ?? []).map(async ({ route }) => {
      if (typeof route.lazy === 'function') await route.lazy();
    }),
  );
}

/**
 * Fetches what the page at `to` needs (its routes' chunks), before it is asked for: the login
 * page's island calls it when a link is pointed at or focused (island/start.tsx).
 */
export function prefetchRoute(to: string): Promise<void> {
  return loadMatchedRoutes(routes, new URL(to, window.location.href).pathname);
}

/** Once the router has its first location's routes (lazy ones loaded). */
function initialized(router: ReturnType<typeof createBrowserRouter>): Promise<void> {
  if (router.state.initialized) return Promise.resolve();
  return new Promise((resolve) => {
    const unsubscribe = router.subscribe((state) => {
      if (!state.initialized) return;
      unsubscribe();
      resolve();
    });
  });
}

/**
 * The login page's island hands the page over (app/island/start.tsx): the visitor follows a link
 * or has signed in.
 */
export interface Handover {
  /** Takes the island away, right before the whole client draws in its place. */
  unmount(this: void): void;
  /**
   * Who the visitor is: anonymous as the server drew the page, signed in as this user (the
   * sign-in goes on as the whole client's would), or unknown (a next step: asked of the server).
   */
  session: 'anonymous' | 'unknown' | CurrentUser;
  /** The page to go to. */
  to?: string;
  /** The island's language (the visitor may have chosen another than the address's). */
  language: Language;
}

export interface BootOptions {
  /** Told of what React recovered from. */
  onRecoverableError?: (error: unknown) => void;
  handover?: Handover;
}

/**
 * Starts the whole client in `container`. A page the server drew there (the login page's island,
 * which hands the page over, or one this browser would draw in another language or brand) stays
 * on the screen until the whole client has what its first render needs — translations, the
 * address's routes — and draws in its place in one task. What the server knew when it drew the
 * page holds for the island and for this browser's same language and brand: no session, the
 * server's configuration.
 */
export async function boot(
  container: HTMLElement,
  { onRecoverableError, handover }: BootOptions = {},
): Promise<{ root: Root }> {
  // Sentry loads after the first paint (app.tsx): what fails before is kept for it.
  queueEarlyErrors();
  const brand = resolveBrandFromWindow();
  const language = handover?.language ?? detectLanguageFromWindow();
  const i18n = createI18nInstance();
  const services = createAppServices({
    brand,
    getLanguage: () => asLanguage(i18n.language) ?? language,
  });
  const drawn: PageState | null = readPageState(document);
  const known =
    drawn && (handover || (drawn.language === language && drawn.brand === brand)) ? drawn : null;
  if (known) seedConfig(services, known.config);
  else void services.queryClient.prefetchQuery(configQueryOptions(services));
  const session = handover?.session ?? (known ? 'anonymous' : 'unknown');
  if (session === 'anonymous') services.queryClient.setQueryData(ME_QUERY_KEY, null);
  // Else ask who the visitor is while the translations load.
  else if (session === 'unknown') prefetchMe(services);
  else completeSignIn(services, session, targetUriOf(window.location.search));

  // The translations and the page's lazy chunks (layout, page) load side by side.
  const target = handover?.to;
  const pathname = target ? new URL(target, window.location.href).pathname : undefined;
  await Promise.all([
    initI18n(i18n, language, FIRST_NAMESPACES),
    loadMatchedRoutes(routes, pathname ?? window.location.pathname),
  ]);
  if (target) window.history.pushState(null, '', target);
  const router = createBrowserRouter(routes);
  await initialized(router);

  const app = (
    <StrictMode>
      <App services={services} i18n={i18n}>
        <RouterProvider router={router} />
      </App>
    </StrictMode>
  );
  const replacing = container.hasChildNodes();
  handover?.unmount();
  container.replaceChildren();
  const root = createRoot(container, onRecoverableError ? { onRecoverableError } : {});
  // What was on the screen is replaced in the same task: no empty frame in between.
  if (replacing) flushSync(() => root.render(app));
  else root.render(app);
  return { root };
}

function prefetchMe(services: AppServices): void {
  void services.queryClient.prefetchQuery(meQueryOptions(services.api, services.accountState));
}

function targetUriOf(search: string): string | null {
  return new URLSearchParams(search).get('target_uri');
}
