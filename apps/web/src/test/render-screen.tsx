import type { ComponentType } from 'react';
import { render } from '@testing-library/react';
import { createMemoryRouter, Navigate, type RouteObject, RouterProvider } from 'react-router';
import type { Brand, CurrentUser, Language } from '@hygie/domain';
import { App } from '../app/app';
import { createI18n } from '../app/i18n';
import MainLayout from '../app/layouts/main-layout';
import ProfileEditLayout from '../app/layouts/profile-edit-layout';
import PublicLayout from '../app/layouts/public-layout';
import SecurityLayout from '../app/layouts/security-layout';
import { RootLayout, type RouteHandle } from '../app/root-layout';
import { RouteError } from '../app/route-error';
import { LEGAL_LINKS } from '../components/site-footer';
import { routeEntries } from '../app/routes';
import { createAppServices } from '../app/services';
import { currentLanguage } from '../lib/language';
import { MuiRoot } from '../lib/mui-root';
import { makeCguStatus, PUBLIC_CONFIG } from './factories';
import { LEGAL_INFORMATION, SUPPORT } from './legal-data';
import { apiError, fakeFetch, json, type FakeHandler } from './fake-api';

export interface RenderScreenOptions {
  /** The address to open (path and query); its path is the screen's route unless `at` says. */
  path: string;
  /** The screen's route when the test opens another address (the guard sends it there). */
  at?: string;
  language?: Language;
  brand?: Brand;
  /** The signed-in user, or null for a visitor (GET /api/me answers 401 not_logged_in). */
  user?: CurrentUser | null;
  /** Overrides GET /api/me entirely (e.g. a pending-stage code). */
  me?: FakeHandler;
  handlers?: Record<string, FakeHandler>;
  /** Other screens to render for real (by route path) when the test moves on to them. */
  also?: Record<string, ComponentType>;
}

const LEGAL_PATHS = new Set<string>(LEGAL_LINKS.map((link) => link.to));

/** The layout a screen sits in, as in the route table (the OAuth error page has its own). */
function layoutOf(path: string): ComponentType | null {
  if (path === '/oauth-error') return null;
  if (path === '/profile/update') return ProfileEditLayout;
  if (LEGAL_PATHS.has(path)) return PublicLayout;
  if (path.startsWith('/security')) return SecurityLayout;
  return MainLayout;
}

/** Stands for a screen that is not under test: a test reaching it checks the router's location. */
function OtherScreen({ name }: { name: string }) {
  return <p data-testid="other-screen" data-screen={name} />;
}

/**
 * The route table with the given screens' pages (imported eagerly, in their layouts) and a
 * stand-in for every other screen; the root keeps the navigation guard and its error boundary.
 */
function screenRoutes(screens: Record<string, ComponentType>): RouteObject[] {
  const layouts = new Map<ComponentType | null, RouteObject[]>();
  const others: RouteObject[] = [];
  for (const { path, name, meta } of routeEntries()) {
    const handle: RouteHandle = { name, meta };
    const Screen = screens[path];
    if (name === 'security') {
      others.push({ path, handle, element: <Navigate to="/security/login" replace /> });
    } else if (name === 'not-found') {
      others.push({ path, handle, element: <Navigate to="/" replace /> });
    } else if (Screen) {
      const layout = layoutOf(path);
      layouts.set(layout, [...(layouts.get(layout) ?? []), { path, handle, element: <Screen /> }]);
    } else {
      others.push({ path, handle, element: <OtherScreen name={name} /> });
    }
  }
  const rendered = [...layouts].flatMap(([Layout, children]) =>
    Layout ? [{ element: <Layout />, children }] : children,
  );
  return [
    {
      id: 'root',
      // The screens as the route table renders them, inside MUI's theme (routes.tsx wraps each
      // one but the login page and its layout, which ignore it).
      element: (
        <MuiRoot>
          <RootLayout />
        </MuiRoot>
      ),
      errorElement: <RouteError />,
      children: [...rendered, ...others],
    },
  ];
}

/**
 * Renders one screen (with the providers, the navigation guard and its layout) on a memory router
 * at `path`, against a fake API — not the whole application with its lazily loaded routes.
 */
export async function renderScreen(Screen: ComponentType, options: RenderScreenOptions) {
  const { path, language = 'fr', brand = 'hygie', user = null } = options;
  const api = fakeFetch({
    'GET /api/config': () => json(200, PUBLIC_CONFIG),
    // The legal pages' facts, open to everyone (each page's own tests vary them).
    'GET /api/legal': () => json(200, LEGAL_INFORMATION),
    'GET /api/support': () => json(200, SUPPORT),
    // The terms in force, public (the sign-up form sends the hash of the text it shows).
    'GET /api/cgu': () => json(200, makeCguStatus()),
    'GET /api/me': options.me ?? (() => (user ? json(200, user) : apiError(401, 'not_logged_in'))),
    ...options.handlers,
  });
  const i18n = await createI18n(language);
  const services = createAppServices({
    brand,
    getLanguage: () => currentLanguage(i18n.language),
    fetch: api.fetch,
  });
  const screenPath = options.at ?? new URL(path, 'http://localhost').pathname;
  if (!routeEntries().some((entry) => entry.path === screenPath)) {
    throw new Error(`${screenPath} is not a route of the table`);
  }
  const routes = screenRoutes({ ...options.also, [screenPath]: Screen });
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const view = render(
    <App services={services} i18n={i18n}>
      <RouterProvider router={router} />
    </App>,
  );
  return { ...view, router, services, i18n, calls: api.calls };
}
