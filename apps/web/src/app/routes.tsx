import type { ComponentType } from 'react';
import { Navigate, type RouteObject } from 'react-router';
import { LoadingScreen } from '../components/loading-screen';
import { ChunkLoadError } from './chunk-reload';
import { loadNamespaces, NAMESPACES, type Namespace } from './i18n';
import type { RouteMeta } from './guard';
import { isRouteHandle, RootLayout, type RouteHandle } from './root-layout';
import { RouteError } from './route-error';

type ComponentModule = { default: ComponentType };

/** The translation namespaces each lazy loader loads beside its chunk (`namespacesOf`). */
const loaderNamespaces = new WeakMap<object, readonly Namespace[]>();

/**
 * Lazily loaded component; a failed chunk load becomes a ChunkLoadError (reloads the target).
 * `namespaces`: the translations the component (and, for a layout, every page inside it) uses
 * beyond the login page's (FIRST_NAMESPACES of namespaces.ts); they load beside the chunk.
 * `plain`: the component uses no MUI (the security layout and the login page, drawn with
 * app/base.css); every other one is rendered inside MuiRoot, which loads beside it, so MUI and its
 * styling engine stay off the login page's first load.
 */
export function lazyComponent(
  load: () => Promise<ComponentModule>,
  { namespaces = [], plain = false }: { namespaces?: readonly Namespace[]; plain?: boolean } = {},
) {
  const lazy = async () => {
    try {
      const [module, mui] = await Promise.all([
        load(),
        plain ? undefined : import('../lib/mui-root'),
        namespaces.length > 0 ? loadNamespaces(namespaces) : undefined,
      ]);
      return { Component: mui ? mui.withMui(module.default) : module.default };
    } catch (error) {
      throw new ChunkLoadError(error);
    }
  };
  loaderNamespaces.set(lazy, namespaces);
  return lazy;
}

/** The namespaces a route's lazy loader loads beside its chunk (none for a route without one). */
export function namespacesOf(route: RouteObject): readonly Namespace[] {
  return (typeof route.lazy === 'function' && loaderNamespaces.get(route.lazy)) || [];
}

const ANONYMOUS_ONLY: RouteMeta = { anonymousOnly: true };
const OPEN_TO_ALL: RouteMeta = { anonymous: true };
const SIGNED_IN: RouteMeta = {};
const LEGAL: RouteMeta = { anonymous: true, alwaysOpen: true };
/** The security layout's screens but the login page: their texts are `security`'s, not first. */
const SECURITY_SCREEN: { namespaces: readonly Namespace[] } = { namespaces: ['security'] };

function handle(name: string, meta: RouteMeta): RouteHandle {
  return { name, meta };
}

/** The screens of spec §2: path, name, marks and the lazily loaded page. */
export const routes: RouteObject[] = [
  {
    id: 'root',
    element: <RootLayout />,
    errorElement: <RouteError />,
    hydrateFallbackElement: <LoadingScreen />,
    children: [
      {
        path: '/',
        // Every namespace: the signed-in area's pages use most of them.
        lazy: lazyComponent(() => import('./layouts/main-layout'), { namespaces: NAMESPACES }),
        children: [
          {
            index: true,
            handle: handle('home', SIGNED_IN),
            lazy: lazyComponent(() => import('../features/dashboard/dashboard-page')),
          },
          {
            path: 'app-settings',
            handle: handle('appSettings', { admin: true }),
            lazy: lazyComponent(() => import('../features/admin/app-settings-page')),
          },
          {
            path: 'app-settings/users/:userId',
            handle: handle('adminUser', { admin: true }),
            lazy: lazyComponent(() => import('../features/admin/user-detail-page')),
          },
          {
            path: 'services',
            handle: handle('services', SIGNED_IN),
            lazy: lazyComponent(() => import('../features/services/services-page')),
          },
          {
            path: 'profile',
            handle: handle('profile', SIGNED_IN),
            lazy: lazyComponent(() => import('../features/profile/profile-page')),
          },
          {
            path: 'devices',
            handle: handle('trusted-devices', SIGNED_IN),
            lazy: lazyComponent(() => import('../features/devices/devices-page')),
          },
          {
            path: 'sessions',
            handle: handle('sessions', SIGNED_IN),
            lazy: lazyComponent(() => import('../features/self-service/sessions-page')),
          },
          {
            path: 'activity',
            handle: handle('activity', SIGNED_IN),
            lazy: lazyComponent(() => import('../features/self-service/activity-page')),
          },
          {
            path: 'platform-access',
            handle: handle('platform-access', SIGNED_IN),
            lazy: lazyComponent(() => import('../features/self-service/platform-access-page')),
          },
        ],
      },
      {
        // The profile editor has its own layout; its empty child is the route named "update".
        path: '/profile/update',
        lazy: lazyComponent(() => import('./layouts/profile-edit-layout'), {
          namespaces: ['account', 'security'],
        }),
        children: [
          {
            index: true,
            handle: handle('update', SIGNED_IN),
            lazy: lazyComponent(() => import('../features/profile/profile-update-page')),
          },
        ],
      },
      {
        path: '/security',
        lazy: lazyComponent(() => import('./layouts/security-layout'), { plain: true }),
        children: [
          {
            index: true,
            handle: handle('security', ANONYMOUS_ONLY),
            element: <Navigate to="/security/login" replace />,
          },
          {
            path: 'login',
            handle: handle('login', ANONYMOUS_ONLY),
            lazy: lazyComponent(() => import('../features/auth/login-page'), { plain: true }),
          },
          {
            path: 'register',
            handle: handle('register', ANONYMOUS_ONLY),
            lazy: lazyComponent(
              () => import('../features/registration/register-page'),
              SECURITY_SCREEN,
            ),
          },
          {
            path: 'register/professional',
            handle: handle('register-professional', ANONYMOUS_ONLY),
            lazy: lazyComponent(
              () => import('../features/registration/register-professional-page'),
              SECURITY_SCREEN,
            ),
          },
          {
            path: 'register/patient',
            handle: handle('register-patient', ANONYMOUS_ONLY),
            lazy: lazyComponent(
              () => import('../features/registration/register-patient-page'),
              SECURITY_SCREEN,
            ),
          },
          {
            path: 'register/success',
            handle: handle('register-success', ANONYMOUS_ONLY),
            lazy: lazyComponent(
              () => import('../features/registration/register-success-page'),
              SECURITY_SCREEN,
            ),
          },
          {
            path: 'goodbye',
            handle: handle('goodbye', OPEN_TO_ALL),
            lazy: lazyComponent(() => import('../features/my-data/goodbye-page'), {
              namespaces: ['my-data'],
            }),
          },
          {
            path: 'password-renewal',
            handle: handle('password-renewal', ANONYMOUS_ONLY),
            lazy: lazyComponent(
              () => import('../features/password/password-renewal-page'),
              SECURITY_SCREEN,
            ),
          },
          {
            path: 'password-renewal/success',
            // Shown once the renewal has signed the user in; without a session it sends to login.
            handle: handle('password-renewal-success', OPEN_TO_ALL),
            lazy: lazyComponent(
              () => import('../features/password/password-renewal-success-page'),
              SECURITY_SCREEN,
            ),
          },
          {
            path: 'verify-email',
            handle: handle('verify-email', ANONYMOUS_ONLY),
            lazy: lazyComponent(
              () => import('../features/verification/verify-email-page'),
              SECURITY_SCREEN,
            ),
          },
          {
            path: 'verify-mobile-phone',
            handle: handle('verify-mobile-phone', ANONYMOUS_ONLY),
            lazy: lazyComponent(
              () => import('../features/verification/verify-mobile-phone-page'),
              SECURITY_SCREEN,
            ),
          },
          {
            path: 'mfa',
            handle: handle('mfa', ANONYMOUS_ONLY),
            lazy: lazyComponent(() => import('../features/mfa/mfa-page'), SECURITY_SCREEN),
          },
          {
            path: 'forgot-password',
            handle: handle('forgot-password', ANONYMOUS_ONLY),
            lazy: lazyComponent(
              () => import('../features/password/forgot-password-page'),
              SECURITY_SCREEN,
            ),
          },
          {
            path: 'forgot-password/success',
            handle: handle('forgot-password-success', ANONYMOUS_ONLY),
            lazy: lazyComponent(
              () => import('../features/password/forgot-password-success-page'),
              SECURITY_SCREEN,
            ),
          },
          {
            path: 'accept-cgu',
            // Also read by a signed-in user: the terms in force, or the version they accepted.
            handle: handle('accept-cgu', { ...ANONYMOUS_ONLY, readableSignedIn: true }),
            lazy: lazyComponent(
              () => import('../features/consent/accept-cgu-page'),
              SECURITY_SCREEN,
            ),
          },
          {
            path: 'first-login',
            handle: handle('first-login', ANONYMOUS_ONLY),
            lazy: lazyComponent(
              () => import('../features/password/first-login-page'),
              SECURITY_SCREEN,
            ),
          },
          {
            path: 'biometrics',
            handle: handle('biometrics', ANONYMOUS_ONLY),
            lazy: lazyComponent(() => import('../features/biometrics/biometrics-page'), {
              namespaces: ['account', 'security'],
            }),
          },
          {
            // A platform or the account area needs a higher level than the session's.
            path: 'step-up',
            handle: handle('step-up', SIGNED_IN),
            lazy: lazyComponent(() => import('../features/step-up/step-up-page'), SECURITY_SCREEN),
          },
          {
            path: 'lock-account',
            handle: handle('lock-account', OPEN_TO_ALL),
            lazy: lazyComponent(
              () => import('../features/lock/lock-account-page'),
              SECURITY_SCREEN,
            ),
          },
          {
            path: 'account-locked',
            handle: handle('account-locked', OPEN_TO_ALL),
            lazy: lazyComponent(
              () => import('../features/lock/account-locked-page'),
              SECURITY_SCREEN,
            ),
          },
        ],
      },
      {
        // The legal pages: open to everyone in every state, linked from every page's footer.
        lazy: lazyComponent(() => import('./layouts/public-layout'), { namespaces: ['legal'] }),
        children: [
          {
            path: '/legal-notice',
            handle: handle('legal-notice', LEGAL),
            lazy: lazyComponent(() => import('../features/legal/legal-notice-page')),
          },
          {
            path: '/privacy',
            handle: handle('privacy', LEGAL),
            lazy: lazyComponent(() => import('../features/legal/privacy-page')),
          },
          {
            path: '/accessibility',
            handle: handle('accessibility', LEGAL),
            lazy: lazyComponent(() => import('../features/legal/accessibility-page')),
          },
          {
            path: '/contact',
            handle: handle('contact', LEGAL),
            lazy: lazyComponent(() => import('../features/legal/contact-page')),
          },
        ],
      },
      {
        path: '/oauth-error',
        handle: handle('oauth-error', OPEN_TO_ALL),
        lazy: lazyComponent(() => import('../features/oauth-error/oauth-error-page'), {
          namespaces: ['oauth'],
        }),
      },
      {
        path: '*',
        handle: handle('not-found', OPEN_TO_ALL),
        element: <Navigate to="/" replace />,
      },
    ],
  },
];

export interface RouteEntry {
  path: string;
  name: string;
  meta: RouteMeta;
}

/** Every named screen with its full path (for tests and documentation). */
export function routeEntries(tree: RouteObject[] = routes, parent = ''): RouteEntry[] {
  return tree.flatMap((route) => {
    const path = route.path?.startsWith('/')
      ? route.path
      : route.path
        ? `${parent.replace(/\/$/, '')}/${route.path}`
        : parent || '/';
    const { name, meta }: RouteHandle = isRouteHandle(route.handle) ? route.handle : {};
    const own: RouteEntry[] = name && meta ? [{ path, name, meta }] : [];
    return [...own, ...routeEntries(route.children ?? [], path)];
  });
}
