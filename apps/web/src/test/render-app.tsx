import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import type { Brand, CurrentUser, Language } from '@hygie/domain';
import { App } from '../app/app';
import { createI18n } from '../app/i18n';
import { routes } from '../app/routes';
import { createAppServices } from '../app/services';
import { currentLanguage } from '../lib/language';
import { PUBLIC_CONFIG } from './factories';
import { LEGAL_INFORMATION, SUPPORT } from './legal-data';
import { apiError, fakeFetch, json, type FakeHandler } from './fake-api';
// The modules behind the lazy routes are imported with the test file (as a browser with the chunks
// cached would have them): a route then loads in a few ticks, not in a findBy's time-out.
import './screens';
import '../app/layouts/main-layout';
import '../app/layouts/profile-edit-layout';
import '../app/layouts/security-layout';

export interface RenderAppOptions {
  path?: string;
  language?: Language;
  brand?: Brand;
  /** The signed-in user, or null for a visitor (GET /api/me answers 401 not_logged_in). */
  user?: CurrentUser | null;
  /** Overrides GET /api/me entirely (e.g. a pending-stage code). */
  me?: FakeHandler;
  handlers?: Record<string, FakeHandler>;
}

/** Renders the whole application on a memory router against a fake API. */
export async function renderApp(options: RenderAppOptions = {}) {
  const { path = '/', language = 'fr', brand = 'hygie', user = null } = options;
  const api = fakeFetch({
    'GET /api/config': () => json(200, PUBLIC_CONFIG),
    // The legal pages' facts, open to everyone (each page's own tests vary them).
    'GET /api/legal': () => json(200, LEGAL_INFORMATION),
    'GET /api/support': () => json(200, SUPPORT),
    'GET /api/me': options.me ?? (() => (user ? json(200, user) : apiError(401, 'not_logged_in'))),
    ...options.handlers,
  });
  const i18n = await createI18n(language);
  const services = createAppServices({
    brand,
    getLanguage: () => currentLanguage(i18n.language),
    fetch: api.fetch,
  });
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const view = render(
    <App services={services} i18n={i18n}>
      <RouterProvider router={router} />
    </App>,
  );
  return { ...view, router, services, i18n, calls: api.calls };
}
