import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AccountState } from '@hygie/domain';
import { browser } from '../../lib/browser';
import { makeUser } from '../../test/factories';
import { apiError, json, type FakeHandler } from '../../test/fake-api';
import { renderScreen } from '../../test/render-screen';
import LoginPage from './login-page';
import DashboardPage from '../dashboard/dashboard-page';
import DevicesPage from '../devices/devices-page';
import MfaPage from '../mfa/mfa-page';

/** The screens this one hands over to, rendered for real when the test follows it there. */
const NEXT_SCREENS = { '/': DashboardPage, '/devices': DevicesPage, '/security/mfa': MfaPage };

const USERNAME = /^Adresse e-mail, téléphone, numéro de sécurité sociale \(INS\) ou RPPS/;
const PASSWORD = /^Mot de passe(\s\*)?$/;

async function signIn(options: {
  path?: string;
  login: FakeHandler;
  language?: 'fr' | 'en' | 'ar';
}) {
  const rendered = await renderScreen(LoginPage, {
    also: NEXT_SCREENS,
    path: options.path ?? '/security/login',
    language: options.language ?? 'fr',
    handlers: { 'POST /api/login': options.login },
  });
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText(USERNAME), 'marie.dupont@example.fr');
  await user.type(screen.getByLabelText(PASSWORD), 'Secret123');
  await user.click(screen.getByRole('button', { name: 'Se connecter' }));
  return { ...rendered, user };
}

describe('login page', () => {
  afterEach(() => vi.restoreAllMocks());

  it('pre-fills the username a platform hinted (login_hint), leaving the password empty', async () => {
    await renderScreen(LoginPage, {
      also: NEXT_SCREENS,
      path: '/security/login?target_uri=%2F&username=jeanne.martin%40example.fr',
    });
    const username = await screen.findByLabelText<HTMLInputElement>(USERNAME);
    expect(username.value).toBe('jeanne.martin@example.fr');
    expect(screen.getByLabelText<HTMLInputElement>(PASSWORD).value).toBe('');
  });

  it('labels its fields and links to the forgotten-password screen', async () => {
    await renderScreen(LoginPage, { also: NEXT_SCREENS, path: '/security/login' });
    const username = await screen.findByLabelText(USERNAME);
    expect(username.getAttribute('autocomplete')).toBe('username');
    expect(screen.getByLabelText(PASSWORD).getAttribute('type')).toBe('password');
    expect(
      screen.getByRole('link', { name: /^Mot de passe oublié\s\?$/ }).getAttribute('href'),
    ).toBe('/security/forgot-password');
    expect(screen.getByRole('link', { name: 'Créer un compte' }).getAttribute('href')).toBe(
      '/security/register',
    );
  });

  it('shows and hides the password', async () => {
    await renderScreen(LoginPage, { also: NEXT_SCREENS, path: '/security/login' });
    const user = userEvent.setup();
    const password = await screen.findByLabelText(PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Afficher le mot de passe' }));
    expect(password.getAttribute('type')).toBe('text');
    await user.click(screen.getByRole('button', { name: 'Masquer le mot de passe' }));
    expect(password.getAttribute('type')).toBe('password');
  });

  it('requires both fields before calling the server', async () => {
    const { calls } = await renderScreen(LoginPage, {
      also: NEXT_SCREENS,
      path: '/security/login',
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Se connecter' }));
    expect(await screen.findAllByText('Ce champ est obligatoire.')).toHaveLength(2);
    expect(screen.getByLabelText(USERNAME).getAttribute('aria-invalid')).toBe('true');
    expect(calls.some((call) => call.url.pathname === '/api/login')).toBe(false);
  });

  it('focuses the first invalid field, describes it by its error, and clears it as it is typed', async () => {
    const { calls } = await renderScreen(LoginPage, {
      also: NEXT_SCREENS,
      path: '/security/login?username=%20%20',
    });
    const user = userEvent.setup();
    const password = await screen.findByLabelText(PASSWORD);
    await user.type(password, 'Secret123{Enter}');
    const username = screen.getByLabelText(USERNAME);
    expect(document.activeElement).toBe(username);
    const helper = document.getElementById(username.getAttribute('aria-describedby') ?? '');
    expect(helper?.textContent).toBe('Ce champ est obligatoire.');
    expect(password.getAttribute('aria-invalid')).toBe('false');
    await user.type(username, 'marie.dupont@example.fr');
    expect(username.getAttribute('aria-invalid')).toBe('false');
    expect(screen.queryByText('Ce champ est obligatoire.')).toBeNull();
    expect(calls.some((call) => call.url.pathname === '/api/login')).toBe(false);
    await user.keyboard('{Enter}');
    await waitFor(() =>
      expect(calls.find((call) => call.url.pathname === '/api/login')?.body).toEqual({
        username: 'marie.dupont@example.fr',
        password: 'Secret123',
      }),
    );
  });

  it('posts the credentials with the anti-forgery header, the language and the brand', async () => {
    document.cookie = 'XSRF-TOKEN=xsrf-value';
    const { calls } = await signIn({ login: () => json(200, makeUser()) });
    await waitFor(() =>
      expect(calls.some((call) => call.url.pathname === '/api/login')).toBe(true),
    );
    const login = calls.find((call) => call.url.pathname === '/api/login');
    expect(login?.method).toBe('POST');
    expect(login?.body).toEqual({ username: 'marie.dupont@example.fr', password: 'Secret123' });
    expect(login?.headers['x-xsrf-token']).toBe('xsrf-value');
    expect(login?.headers['x-branding']).toBe('hygie');
    expect(login?.url.searchParams.get('l')).toBe('fr');
    expect(login?.credentials).toBe('include');
  });

  it.each([
    [
      'bad credentials',
      () => apiError(401, 'bad_credentials'),
      'Identifiants incorrects, vérifiez votre adresse e-mail et votre mot de passe',
    ],
    [
      'a locked account, with the contact e-mail',
      () => apiError(423, 'account_locked', { contactEmail: 'dpo@hygie.example' }),
      'L’accès au compte a été verrouillé, contactez \u2068dpo@hygie.example\u2069',
    ],
    [
      'a locked account, with the configured contact e-mail',
      () => apiError(423, 'account_locked'),
      'L’accès au compte a été verrouillé, contactez \u2068support@hygie.example\u2069',
    ],
    [
      'too many attempts with a delay',
      () => apiError(429, 'too_many_attempts', { retryAfterSeconds: 30 }),
      'Trop de tentatives. Réessayez dans 30 secondes.',
    ],
    [
      'too many attempts without a delay',
      () => apiError(429, 'too_many_attempts'),
      'Trop de tentatives. Veuillez réessayer plus tard.',
    ],
    [
      'an unavailable identity provider',
      () => apiError(503, 'identity_provider_unavailable'),
      'La connexion avec cette méthode est actuellement indisponible.',
    ],
    [
      'an account pending validation',
      () => apiError(403, 'account_pending_validation'),
      'Votre compte est en attente de validation\u00a0: votre identité doit être vérifiée avant de pouvoir vous connecter.',
    ],
    [
      'invalid input',
      () => apiError(400, 'validation_error'),
      'Certaines informations sont invalides. Vérifiez le formulaire.',
    ],
    [
      'an unexpected failure',
      () => new Response('oops', { status: 500 }),
      'Une erreur est survenue.',
    ],
  ])('explains %s', async (_name, login, message) => {
    await signIn({ login });
    const alert = await screen.findByTestId('login-error');
    expect(alert.textContent).toBe(message);
    expect(alert.getAttribute('role')).toBe('alert');
  });

  it('explains errors in Arabic with the Arabic plural', async () => {
    const rendered = await renderScreen(LoginPage, {
      also: NEXT_SCREENS,
      path: '/security/login',
      language: 'ar',
      handlers: {
        'POST /api/login': () => apiError(429, 'too_many_attempts', { retryAfterSeconds: 2 }),
      },
    });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/^البريد الإلكتروني أو الهاتف/), 'a@b.fr');
    await user.type(screen.getByLabelText(/^كلمة المرور(\s\*)?$/), 'x');
    await user.click(screen.getByRole('button', { name: 'دخول' }));
    expect((await screen.findByTestId('login-error')).textContent).toBe(
      'محاولات كثيرة جدًا. أعد المحاولة بعد ثانيتين.',
    );
    expect(rendered.router.state.location.pathname).toBe('/security/login');
  });

  it('goes home once signed in', async () => {
    const { router, services } = await signIn({ login: () => json(200, makeUser()) });
    await screen.findByRole('heading', { level: 1, name: 'Tableau de bord' });
    expect(router.state.location.pathname).toBe('/');
    expect(services.accountState.get().state).toBe(AccountState.LOGGED_IN);
  });

  it('goes back to the requested page once signed in', async () => {
    const { router } = await signIn({
      path: '/security/login?redirect=%2Fdevices',
      login: () => json(200, makeUser()),
    });
    await screen.findByRole('heading', { level: 1, name: 'Mes appareils' });
    expect(router.state.location.pathname).toBe('/devices');
  });

  it('follows a same-origin target_uri with a full navigation', async () => {
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    await signIn({
      path: '/security/login?target_uri=%2Foidc%2Finteraction%2Fabc',
      login: () => json(200, makeUser()),
    });
    await waitFor(() =>
      expect(assign).toHaveBeenCalledWith(`${window.location.origin}/oidc/interaction/abc`),
    );
  });

  it.each(['https://evil.example/steal', '//evil.example/steal', '/\\evil.example'])(
    'ignores the foreign target_uri %s',
    async (target) => {
      const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
      const { router } = await signIn({
        path: `/security/login?target_uri=${encodeURIComponent(target)}`,
        login: () => json(200, makeUser()),
      });
      await screen.findByRole('heading', { level: 1, name: 'Tableau de bord' });
      expect(router.state.location.pathname).toBe('/');
      expect(assign).not.toHaveBeenCalled();
    },
  );

  it('hands over to the MFA screen on a pending stage, keeping target_uri', async () => {
    const { router, services } = await signIn({
      path: '/security/login?target_uri=%2Foidc%2Fi',
      login: () =>
        apiError(401, 'two_factor_authentication_required', {
          user_identifier: 'u1',
          two_factor_providers: ['email'],
          email_hint: 'm***@example.fr',
          sms_hint: null,
          sms_enabled: false,
        }),
    });
    await screen.findByRole('heading', { level: 1, name: 'Vérification en deux étapes' });
    expect(router.state.location.pathname).toBe('/security/mfa');
    expect(new URLSearchParams(router.state.location.search).get('target_uri')).toBe('/oidc/i');
    expect(services.accountState.get()).toMatchObject({
      state: AccountState.MFA_REQUIRED,
      data: { email_hint: 'm***@example.fr' },
    });
    expect(screen.queryByTestId('login-error')).toBeNull();
  });

  it('says the session expired when sent with ?expired=1', async () => {
    await renderScreen(LoginPage, { also: NEXT_SCREENS, path: '/security/login?expired=1' });
    expect((await screen.findByTestId('session-expired')).textContent).toBe(
      'Votre session a expiré. Veuillez vous reconnecter.',
    );
  });
});
