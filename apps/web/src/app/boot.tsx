import { StrictMode } from 'react';
import { createRoot, hydrateRoot, type Root } from 'react-dom/client';
import { createBrowserRouter, matchRoutes, RouterProvider, type RouteObject } from 'react-router';
import { asLanguage } from '@hygie/domain';
import { resolveBrandFromWindow } from '../lib/brand';
import { configQueryOptions } from '../lib/config';
import { queueEarlyErrors } from '../lib/error-reporting';
import { meQueryOptions } from '../lib/current-user';
import { detectLanguageFromWindow } from '../lib/language';
import { App } from './app';
import { createI18nInstance, FIRST_NAMESPACES, initI18n } from './i18n';
import { readPageState, seedPageData, type PageState } from './page-state';
import { routes } from './routes';
import { createAppServices } from './services';

/**
 * Loads the lazy routes `pathname` matches into the table, as the server had them when it drew the
 * page: the router then renders them at once, as the HTML it takes over shows them.
 */
async function loadMatchedRoutes(table: RouteObject[], pathname: string): Promise<void> {
  await Promise.all(
    (matchRoutes(table, pathname) ?? []).map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return;
      Object.assign(route, await route.lazy(), { lazy: undefined });
    }),
  );
}

export interface BootOptions {
  /** Told of what React recovered from, a page it could not take over among them. */
  onRecoverableError?: (error: unknown) => void;
}

/**
 * Starts the client in `container`: takes over the page the server drew there, if this browser
 * would have drawn the same (same language, same brand: a remembered choice of this browser may
 * differ), else draws it. Says whether it took the page over, and gives the root.
 */
export async function boot(
  container: HTMLElement,
  { onRecoverableError }: BootOptions = {},
): Promise<{ hydrated: boolean; root: Root }> {
  // Sentry loads after the first paint (app.tsx): what fails before is kept for it.
  queueEarlyErrors();
  const brand = resolveBrandFromWindow();
  const language = detectLanguageFromWindow();
  const i18n = createI18nInstance();
  const services = createAppServices({
    brand,
    getLanguage: () => asLanguage(i18n.language) ?? language,
  });
  const drawn: PageState | null = readPageState(document);
  const hydrate = drawn?.language === language && drawn.brand === brand;
  if (drawn && hydrate) {
    seedPageData(services, drawn);
  } else {
    // Ask who the visitor is while the translations load.
    void services.queryClient.prefetchQuery(meQueryOptions(services.api, services.accountState));
    void services.queryClient.prefetchQuery(configQueryOptions(services));
  }
  // The translations are asked for, then the router is made, which starts loading the page's lazy
  // chunks (layout, page): both load side by side before the first render.
  const translations = initI18n(i18n, language, FIRST_NAMESPACES);
  if (hydrate) await loadMatchedRoutes(routes, window.location.pathname);
  const router = createBrowserRouter(routes);
  await translations;

  const app = (
    <StrictMode>
      <App services={services} i18n={i18n}>
        <RouterProvider router={router} />
      </App>
    </StrictMode>
  );
  const rootOptions = onRecoverableError ? { onRecoverableError } : {};
  if (hydrate) return { hydrated: true, root: hydrateRoot(container, app, rootOptions) };
  container.replaceChildren();
  const root = createRoot(container, rootOptions);
  root.render(app);
  return { hydrated: false, root };
}
