import { screen } from '@testing-library/react';
import type { RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { innerComponent } from '../lib/mui-root';
import { makeUser } from '../test/factories';
import { renderApp } from '../test/render-app';
import { SCREEN_COMPONENTS } from '../test/screens';
import { MFA_DATA, pendingMe, SECURITY_SCREEN_HANDLERS } from '../test/stages';
import { routeEntries, routes } from './routes';

// Routing of the whole application (lazy routes, guard redirects); each screen's own behaviour
// and accessibility are tested on the screen alone (screens-a11y.test.tsx and the feature tests).

/** Every route of the table that loads its page lazily, with its full path. */
function lazyScreens(tree: RouteObject[], parent = ''): [string, RouteObject][] {
  return tree.flatMap((route) => {
    const path = route.path?.startsWith('/')
      ? route.path
      : route.path
        ? `${parent.replace(/\/$/, '')}/${route.path}`
        : parent || '/';
    const own: [string, RouteObject][] = route.handle && route.lazy ? [[path, route]] : [];
    return [...own, ...lazyScreens(route.children ?? [], path)];
  });
}

describe('route table (spec §2)', () => {
  it('has every screen of the spec with its marks', () => {
    const table = Object.fromEntries(routeEntries().map((entry) => [entry.path, entry]));
    expect(Object.keys(table).sort()).toEqual(
      [
        '/',
        '/app-settings',
        '/app-settings/users/:userId',
        '/services',
        '/profile',
        '/devices',
        '/sessions',
        '/activity',
        '/platform-access',
        '/profile/update',
        '/security',
        '/security/login',
        '/security/register',
        '/security/register/professional',
        '/security/register/patient',
        '/security/register/success',
        '/security/password-renewal',
        '/security/password-renewal/success',
        '/security/verify-email',
        '/security/verify-mobile-phone',
        '/security/mfa',
        '/security/forgot-password',
        '/security/forgot-password/success',
        '/security/accept-cgu',
        '/security/first-login',
        '/security/biometrics',
        '/security/step-up',
        '/security/lock-account',
        '/security/account-locked',
        '/legal-notice',
        '/privacy',
        '/accessibility',
        '/contact',
        '/security/goodbye',
        '/oauth-error',
        '/*',
      ].sort(),
    );
    expect(table['/']?.name).toBe('home');
    expect(table['/app-settings']).toMatchObject({ name: 'appSettings', meta: { admin: true } });
    expect(table['/app-settings/users/:userId']).toMatchObject({
      name: 'adminUser',
      meta: { admin: true },
    });
    expect(table['/devices']?.name).toBe('trusted-devices');
    expect(table['/profile/update']?.name).toBe('update');
    expect(table['/security/password-renewal']?.name).toBe('password-renewal');
    expect(table['/security/verify-email']?.name).toBe('verify-email');
    expect(table['/security/verify-mobile-phone']?.name).toBe('verify-mobile-phone');
    expect(table['/security/login']?.meta).toEqual({ anonymousOnly: true });
    expect(table['/security/lock-account']?.meta).toEqual({ anonymous: true });
    expect(table['/security/account-locked']?.meta).toEqual({ anonymous: true });
    expect(table['/security/goodbye']).toMatchObject({
      name: 'goodbye',
      meta: { anonymous: true },
    });
    expect(table['/oauth-error']?.meta).toEqual({ anonymous: true });
    for (const path of ['/legal-notice', '/privacy', '/accessibility', '/contact']) {
      expect(table[path]?.meta).toEqual({ anonymous: true, alwaysOpen: true });
    }
  });

  it('loads, for each screen, the page its screen tests render', async () => {
    const loaded = await Promise.all(
      lazyScreens(routes).map(async ([path, route]) => {
        if (typeof route.lazy !== 'function') throw new Error(`${path} has no lazy() loader`);
        const { Component } = await route.lazy();
        return [path, Component ? innerComponent(Component) : Component] as const;
      }),
    );
    expect(Object.fromEntries(loaded)).toEqual(SCREEN_COMPONENTS);
  });

  it('renders every screen inside MUI’s theme but the login page, drawn without MUI', async () => {
    const plain = await Promise.all(
      lazyScreens(routes).map(async ([path, route]) => {
        if (typeof route.lazy !== 'function') throw new Error(`${path} has no lazy() loader`);
        const { Component } = await route.lazy();
        return [path, !!Component && innerComponent(Component) === Component] as const;
      }),
    );
    expect(plain.filter(([, isPlain]) => isPlain).map(([path]) => path)).toEqual([
      '/security/login',
    ]);
  });

  it('redirects unknown paths to /', async () => {
    const { router } = await renderApp({ path: '/nowhere/at/all', user: makeUser() });
    await screen.findByRole('heading', { level: 1, name: 'Tableau de bord' });
    expect(router.state.location.pathname).toBe('/');
  });

  it('sends a visitor to login, keeping the requested page', async () => {
    const { router } = await renderApp({ path: '/devices' });
    await screen.findByRole('heading', { level: 1, name: 'Connexion' });
    expect(router.state.location.pathname).toBe('/security/login');
    expect(router.state.location.search).toBe('?redirect=%2Fdevices');
  });

  it('sends a non-admin away from the admin screen', async () => {
    const { router } = await renderApp({ path: '/app-settings', user: makeUser() });
    await screen.findByRole('heading', { level: 1, name: 'Tableau de bord' });
    expect(router.state.location.pathname).toBe('/');
  });

  it.each([
    ['two_factor_authentication_required', '/security/mfa', 'Vérification en deux étapes'],
    ['email_not_verified', '/security/verify-email', 'Vérification de l’adresse e-mail'],
    [
      'mobile_phone_not_verified',
      '/security/verify-mobile-phone',
      'Vérification du téléphone mobile',
    ],
    ['cgu_not_accepted', '/security/accept-cgu', 'Conditions générales d’utilisation'],
    ['password_expired', '/security/password-renewal', 'Renouvellement du mot de passe'],
    ['password_creation_required', '/security/password-renewal', 'Création du mot de passe'],
  ])('sends a pending %s to %s, remembering the page asked for', async (code, path, title) => {
    const { router } = await renderApp({
      path: '/devices',
      me: pendingMe(code, code === 'two_factor_authentication_required' ? MFA_DATA : undefined),
      handlers: SECURITY_SCREEN_HANDLERS,
    });
    await screen.findByRole('heading', { level: 1, name: title });
    expect(router.state.location.pathname).toBe(path);
    expect(router.state.location.search).toBe('?redirect=%2Fdevices');
    expect(screen.queryByText(/Cette étape fait partie de la connexion/)).toBeNull();
  });

  it('forces the screen of a pending state', async () => {
    const { router } = await renderApp({
      path: '/profile',
      me: () =>
        new Response(JSON.stringify({ code: 'cgu_not_accepted', message: 'CGU' }), { status: 403 }),
    });
    await screen.findByRole('heading', {
      level: 1,
      name: 'Conditions générales d’utilisation',
    });
    expect(router.state.location.pathname).toBe('/security/accept-cgu');
    // The only way out of a half-open session is to finish it or to sign out.
    expect(screen.getByRole('button', { name: 'Annuler et se déconnecter' })).toBeTruthy();
  });
});
