import { screen, waitFor } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { BRAND_NAMES, type Brand, type Language } from '@hygie/domain';
import { expectNoAxeViolations, expectPageStructure } from '../test/a11y';
import { typeCode } from '../test/code';
import { makeUser } from '../test/factories';
import { json, type FakeHandler } from '../test/fake-api';
import { renderApp } from '../test/render-app';
import { MFA_DATA, pendingMe } from '../test/stages';
import { routeEntries } from './routes';

/** Answers of the calls the security screens make when they open or move to a later step. */
const SCREEN_HANDLERS: Record<string, FakeHandler> = {
  'GET /api/cgu': () =>
    json(200, { version: '2025-03', publishedAt: '2025-03-01', acceptedVersion: null }),
  'GET /api/mfa': () => json(200, MFA_DATA),
  'POST /api/mfa/send': () => json(200, { destination: 'm•••e@example.fr', retryAfterSeconds: 60 }),
  'GET /api/verification': () =>
    json(200, {
      email: 'marie.dupont@example.fr',
      emailVerified: false,
      mobile_phone: '+33612345678',
      mobilePhoneVerified: false,
    }),
  'POST /api/verification/mobile-phone/change': () =>
    json(200, { destination: '+33 6 •• •• •• 78', retryAfterSeconds: 60 }),
  'POST /api/password/forgot': () => json(200, { destination: '', retryAfterSeconds: 60 }),
  'POST /api/password/forgot/verify': () => json(200, { resetToken: 'token' }),
  'GET /api/first-login': () => json(200, { email: 'paul@example.fr', firstName: 'Paul' }),
};

/** A screen in a state other than a plain visit: a sign-in stage, a link, a later step. */
interface Scenario {
  name: string;
  path: string;
  me?: FakeHandler;
  /** Takes the screen to the state to check, once its h1 is shown. */
  act?: (user: UserEvent) => Promise<unknown>;
}

const SCENARIOS: Scenario[] = [
  {
    name: 'MFA, choosing the method',
    path: '/security/mfa',
    me: pendingMe('two_factor_authentication_required', MFA_DATA),
    act: () => screen.findByTestId('mfa-send'),
  },
  {
    name: 'MFA, typing the code',
    path: '/security/mfa',
    me: pendingMe('two_factor_authentication_required', MFA_DATA),
    act: async (user) => {
      await user.click(await screen.findByTestId('mfa-send'));
      return screen.findByTestId('mfa-submit');
    },
  },
  {
    name: 'e-mail verification stage',
    path: '/security/verify-email',
    me: pendingMe('email_not_verified'),
    act: () => screen.findByText(/marie\.dupont@example\.fr/),
  },
  {
    name: 'e-mail verification from the link',
    path: '/security/verify-email?email=marie%40example.fr&code=123456',
    act: () => screen.findByDisplayValue('marie@example.fr'),
  },
  {
    name: 'phone verification, the number',
    path: '/security/verify-mobile-phone',
    me: pendingMe('mobile_phone_not_verified'),
    act: () => screen.findByDisplayValue('+33612345678'),
  },
  {
    name: 'phone verification, the code',
    path: '/security/verify-mobile-phone',
    me: pendingMe('mobile_phone_not_verified'),
    act: async (user) => {
      await screen.findByDisplayValue('+33612345678');
      await user.click(screen.getByTestId('verify-phone-send'));
      return screen.findByTestId('verify-phone-submit');
    },
  },
  {
    name: 'terms to accept',
    path: '/security/accept-cgu',
    me: pendingMe('cgu_not_accepted'),
    act: () => screen.findByTestId('cgu-submit'),
  },
  {
    name: 'expired password',
    path: '/security/password-renewal',
    me: pendingMe('password_expired'),
    act: () => screen.findByTestId('renewal-submit'),
  },
  {
    name: 'password to create',
    path: '/security/password-renewal',
    me: pendingMe('password_creation_required'),
    act: () => screen.findByTestId('renewal-submit'),
  },
  {
    name: 'forgotten password, the code',
    path: '/security/forgot-password',
    act: async (user) => {
      await user.type(
        await screen.findByLabelText(/^Adresse e-mail, téléphone|^Email, phone|^البريد/),
        'a@b.fr',
      );
      await user.click(screen.getByTestId('forgot-send'));
      return screen.findByTestId('forgot-verify');
    },
  },
  {
    name: 'forgotten password, the new password',
    path: '/security/forgot-password',
    act: async (user) => {
      await user.type(
        await screen.findByLabelText(/^Adresse e-mail, téléphone|^Email, phone|^البريد/),
        'a@b.fr',
      );
      await user.click(screen.getByTestId('forgot-send'));
      await screen.findByTestId('forgot-verify');
      await typeCode(user, '123456');
      await user.click(screen.getByTestId('forgot-verify'));
      return screen.findByTestId('forgot-submit');
    },
  },
  {
    name: 'first login with a valid link',
    path: '/security/first-login?personIdentifier=u7&email=paul%40example.fr&code=c',
    act: () => screen.findByTestId('first-login-submit'),
  },
  {
    name: 'lock account with its link',
    path: '/security/lock-account?email=paul%40example.fr&code=c',
    act: () => screen.findByTestId('lock-confirm'),
  },
  {
    name: 'account locked, named',
    path: '/security/account-locked?username=paul%40example.fr',
    act: () => screen.findByRole('link', { name: 'support@hygie.example' }),
  },
];

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
      handlers: SCREEN_HANDLERS,
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
      const { router } = await renderApp({
        path,
        language,
        brand,
        user: visitorFor(entry),
        handlers: SCREEN_HANDLERS,
      });
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

describe.each(VARIANTS)(
  'security screens in their other states, in %s with the %s brand',
  (language, brand) => {
    it.each(SCENARIOS.map((scenario) => [scenario.name, scenario] as const))(
      '%s: one h1 in a <main>, its title, and passes axe',
      async (_name, scenario) => {
        const { router } = await renderApp({
          path: scenario.path,
          language,
          brand,
          ...(scenario.me && { me: scenario.me }),
          handlers: SCREEN_HANDLERS,
        });
        await waitFor(() => expect(document.querySelector('main h1')).toBeTruthy());
        await scenario.act?.(userEvent.setup());
        expect(router.state.location.pathname).toBe(scenario.path.split('?')[0]);
        expect(document.documentElement.dir).toBe(language === 'ar' ? 'rtl' : 'ltr');
        expect(screen.queryByTestId('form-error')).toBeNull();
        expectPageStructure(BRAND_NAMES[brand]);
        await expectNoAxeViolations();
      },
    );
  },
);
