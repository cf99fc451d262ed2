import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, json, type FakeHandler } from '../../test/fake-api';
import { renderScreen } from '../../test/render-screen';
import FirstLoginPage from './first-login-page';
import LoginPage from '../auth/login-page';

/** The screens this one hands over to, rendered for real when the test follows it there. */
const NEXT_SCREENS = { '/security/login': LoginPage };

const LINK = 'personIdentifier=user-7&email=paul%40example.fr&code=abc123';

async function openFirstLogin(handlers: Record<string, FakeHandler> = {}, query = LINK) {
  const rendered = await renderScreen(FirstLoginPage, {
    also: NEXT_SCREENS,
    path: `/security/first-login?${query}`,
    handlers: {
      'GET /api/first-login': () => json(200, { email: 'paul@example.fr', firstName: 'Paul' }),
      'POST /api/first-login': () => json(200, { ok: true }),
      ...handlers,
    },
  });
  return { ...rendered, user: userEvent.setup() };
}

async function createPassword(user: ReturnType<typeof userEvent.setup>) {
  await user.type(await screen.findByLabelText(/^Nouveau mot de passe/), 'Premier2025x');
  await user.type(screen.getByLabelText(/^Confirmer le mot de passe/), 'Premier2025x');
  await user.click(screen.getByTestId('first-login-submit'));
}

describe('first login', () => {
  it('checks the link and greets the person', async () => {
    const { calls } = await openFirstLogin();
    expect(await screen.findByText('Bonjour Paul,')).toBeTruthy();
    expect(screen.getByLabelText<HTMLInputElement>('Adresse e-mail du compte').value).toBe(
      'paul@example.fr',
    );
    const check = calls.find((call) => call.url.pathname === '/api/first-login');
    expect(Object.fromEntries(check?.url.searchParams ?? [])).toMatchObject({
      personIdentifier: 'user-7',
      email: 'paul@example.fr',
      code: 'abc123',
    });
  });

  it('creates the password and goes to login with a notice, keeping redirect', async () => {
    const { user, calls, router } = await openFirstLogin({}, `${LINK}&redirect=%2Fservices`);
    await createPassword(user);
    await screen.findByRole('heading', { level: 1, name: 'Connexion' });
    expect(router.state.location.pathname).toBe('/security/login');
    expect(router.state.location.search).toBe('?redirect=%2Fservices');
    expect(
      await screen.findByText(
        'Votre mot de passe a été créé. Vous pouvez maintenant vous connecter.',
      ),
    ).toBeTruthy();
    expect(
      calls.filter((c) => c.method === 'POST' && c.url.pathname === '/api/first-login')[0]?.body,
    ).toEqual({
      personIdentifier: 'user-7',
      email: 'paul@example.fr',
      code: 'abc123',
      password: 'Premier2025x',
      passwordConfirmation: 'Premier2025x',
    });
  });

  it('keeps a target_uri that came with the link', async () => {
    const { user, router } = await openFirstLogin({}, `${LINK}&target_uri=%2Foidc%2Fauth%3Fx%3D1`);
    await createPassword(user);
    await screen.findByRole('heading', { level: 1, name: 'Connexion' });
    expect(new URLSearchParams(router.state.location.search).get('target_uri')).toBe(
      '/oidc/auth?x=1',
    );
  });

  it('says clearly when the link has expired', async () => {
    await openFirstLogin({ 'GET /api/first-login': () => apiError(400, 'link_expired') });
    expect((await screen.findByTestId('form-error')).textContent).toBe(
      'Ce lien de première connexion a expiré ou a déjà été utilisé.',
    );
    expect(screen.queryByTestId('first-login-submit')).toBeNull();
    expect(
      screen.getByText(/demandez une nouvelle invitation à \u2068support@hygie\.example\u2069/),
    ).toBeTruthy();
  });

  it('says so when the link is incomplete, without calling the server', async () => {
    const { calls } = await openFirstLogin({}, 'email=paul%40example.fr');
    expect((await screen.findByTestId('form-error')).textContent).toBe(
      'Ce lien de première connexion a expiré ou a déjà été utilisé.',
    );
    expect(calls.some((call) => call.url.pathname === '/api/first-login')).toBe(false);
  });

  it('says so when the link expires before the password is sent', async () => {
    const { user } = await openFirstLogin({
      'POST /api/first-login': () => apiError(400, 'link_expired'),
    });
    await createPassword(user);
    expect((await screen.findByTestId('form-error')).textContent).toBe(
      'Ce lien de première connexion a expiré ou a déjà été utilisé.',
    );
  });

  it('shows a refused password on its field', async () => {
    const { user } = await openFirstLogin({
      'POST /api/first-login': () =>
        apiError(400, 'validation_error', {
          fields: [{ path: 'password', message: 'password_personal_info' }],
        }),
    });
    await createPassword(user);
    expect(
      await screen.findByText(
        'Le mot de passe ne doit contenir ni votre nom ni votre adresse e-mail.',
      ),
    ).toBeTruthy();
  });
});
