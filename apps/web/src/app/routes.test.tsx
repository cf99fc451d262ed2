import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { BRAND_NAMES, type Brand, type Language } from '@hygie/domain';
import { expectNoAxeViolations, expectPageStructure } from '../test/a11y';
import { makeUser } from '../test/factories';
import { renderApp } from '../test/render-app';
import { routeEntries } from './routes';

const SCREENS = routeEntries().filter((entry) => !['security', 'not-found'].includes(entry.name));

/** A visitor the route is open to: an admin for admin routes, a patient for signed-in ones. */
function visitorFor(entry: (typeof SCREENS)[number]) {
  if (entry.meta.anonymous || entry.meta.anonymousOnly) return null;
  return makeUser(entry.meta.admin ? { roles: ['admin'] } : {});
}

describe('route table (spec §2)', () => {
  it('has every screen of the spec with its marks', () => {
    const table = Object.fromEntries(routeEntries().map((entry) => [entry.path, entry]));
    expect(Object.keys(table).sort()).toEqual(
      [
        '/',
        '/app-settings',
        '/services',
        '/profile',
        '/devices',
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
        '/security/lock-account',
        '/security/account-locked',
        '/oauth-error',
        '/*',
      ].sort(),
    );
    expect(table['/']?.name).toBe('home');
    expect(table['/app-settings']).toMatchObject({ name: 'appSettings', meta: { admin: true } });
    expect(table['/devices']?.name).toBe('trusted-devices');
    expect(table['/profile/update']?.name).toBe('update');
    expect(table['/security/password-renewal']?.name).toBe('password-renewal');
    expect(table['/security/verify-email']?.name).toBe('verify-email');
    expect(table['/security/verify-mobile-phone']?.name).toBe('verify-mobile-phone');
    expect(table['/security/login']?.meta).toEqual({ anonymousOnly: true });
    expect(table['/security/lock-account']?.meta).toEqual({ anonymous: true });
    expect(table['/security/account-locked']?.meta).toEqual({ anonymous: true });
    expect(table['/oauth-error']?.meta).toEqual({ anonymous: true });
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

const VARIANTS: [Language, Brand][] = [
  ['fr', 'hygie'],
  ['en', 'telecare'],
  ['ar', 'telecare'],
  ['ar', 'hygie'],
];

describe.each(VARIANTS)('every screen in %s with the %s brand', (language, brand) => {
  it.each(SCREENS.map((entry) => [entry.path, entry] as const))(
    '%s renders one h1 in a <main>, its title, and passes axe',
    async (path, entry) => {
      const { router } = await renderApp({ path, language, brand, user: visitorFor(entry) });
      await waitFor(() => expect(document.querySelector('main h1')).toBeTruthy());
      expect(router.state.location.pathname).toBe(path);
      expect(document.querySelector('[data-brand]')?.getAttribute('data-brand')).toBe(brand);
      expect(document.documentElement.lang).toBe(language);
      expect(document.documentElement.dir).toBe(language === 'ar' ? 'rtl' : 'ltr');
      expectPageStructure(BRAND_NAMES[brand]);
      await expectNoAxeViolations();
    },
  );
});
