import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startAuthentication } from '@simplewebauthn/browser';
import { AccountState } from '@hygie/domain';
import { resetNativeLoadingScreen } from '../../lib/native-bridge';
import {
  authenticationResponse,
  CHROME_LINUX_UA,
  installBridge,
  NEWER_APP_UA,
  removeBridge,
  useUserAgent,
  withWebAuthn,
} from '../../test/biometrics';
import { makeUser, makeCguStatus } from '../../test/factories';
import { apiError, json, type FakeHandler } from '../../test/fake-api';
import { renderScreen } from '../../test/render-screen';
import LoginPage from './login-page';
import DashboardPage from '../dashboard/dashboard-page';
import BiometricsPage from '../biometrics/biometrics-page';

/** The screens this one hands over to, rendered for real when the test follows it there. */
const NEXT_SCREENS = { '/': DashboardPage, '/security/biometrics': BiometricsPage };

vi.mock('@simplewebauthn/browser', () => ({
  startAuthentication: vi.fn(),
  startRegistration: vi.fn(),
}));

const USERNAME = /^Adresse e-mail, téléphone, numéro de sécurité sociale \(INS\) ou RPPS/;
const PASSWORD = /^Mot de passe(\s\*)?$/;
const ASSERTION = authenticationResponse('cred-1');
const OPTIONS = { challenge: 'abc', rpId: 'localhost', allowCredentials: [] };

function passkeyHandlers(verify: FakeHandler): Record<string, FakeHandler> {
  return {
    'POST /api/biometrics/webauthn/authentication/options': () =>
      json(200, { challengeId: 'ch-1', options: OPTIONS }),
    'POST /api/biometrics/webauthn/authentication/verify': verify,
  };
}

function notAllowed(): Error {
  const error = new Error('The operation either timed out or was not allowed.');
  error.name = 'NotAllowedError';
  return error;
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  removeBridge();
  resetNativeLoadingScreen();
});

describe('passkey sign-in (browsers)', () => {
  beforeEach(() => {
    useUserAgent(CHROME_LINUX_UA);
    withWebAuthn();
    vi.mocked(startAuthentication).mockReset();
  });

  it('is not offered without WebAuthn', async () => {
    vi.unstubAllGlobals();
    await renderScreen(LoginPage, { also: NEXT_SCREENS, path: '/security/login' });
    await screen.findByLabelText(USERNAME);
    expect(screen.queryByTestId('passkey-login')).toBeNull();
  });

  it('is not offered inside the newer app even with WebAuthn', async () => {
    useUserAgent(NEWER_APP_UA);
    installBridge();
    await renderScreen(LoginPage, { also: NEXT_SCREENS, path: '/security/login' });
    await screen.findByLabelText(USERNAME);
    expect(screen.queryByTestId('passkey-login')).toBeNull();
  });

  it('signs in with the typed username and goes home', async () => {
    vi.mocked(startAuthentication).mockResolvedValue(ASSERTION);
    const { calls, router, services } = await renderScreen(LoginPage, {
      also: NEXT_SCREENS,
      path: '/security/login',
      handlers: passkeyHandlers(() => json(200, makeUser())),
    });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(USERNAME), ' marie.dupont@example.fr ');
    await user.click(screen.getByRole('button', { name: 'Se connecter avec une clé d’accès' }));
    await screen.findByRole('heading', { level: 1, name: 'Tableau de bord' });
    expect(router.state.location.pathname).toBe('/');
    expect(services.accountState.get().state).toBe(AccountState.LOGGED_IN);
    const options = calls.find((c) => c.url.pathname.endsWith('/authentication/options'));
    expect(options?.body).toEqual({ username: 'marie.dupont@example.fr' });
    expect(startAuthentication).toHaveBeenCalledWith({ optionsJSON: OPTIONS });
    const verify = calls.find((c) => c.url.pathname.endsWith('/authentication/verify'));
    expect(verify?.body).toEqual({ challengeId: 'ch-1', response: ASSERTION });
    expect(verify?.headers['x-branding']).toBe('hygie');
  });

  it('asks for any passkey when the username is empty', async () => {
    vi.mocked(startAuthentication).mockResolvedValue(ASSERTION);
    const { calls } = await renderScreen(LoginPage, {
      also: NEXT_SCREENS,
      path: '/security/login',
      handlers: passkeyHandlers(() => json(200, makeUser())),
    });
    await userEvent.setup().click(await screen.findByTestId('passkey-login'));
    await screen.findByRole('heading', { level: 1, name: 'Tableau de bord' });
    const options = calls.find((c) => c.url.pathname.endsWith('/authentication/options'));
    expect(options?.body).toEqual({});
  });

  it('hands over to the second factor on a pending stage', async () => {
    vi.mocked(startAuthentication).mockResolvedValue(ASSERTION);
    const { router, services } = await renderScreen(LoginPage, {
      also: NEXT_SCREENS,
      path: '/security/login',
      handlers: {
        ...passkeyHandlers(() => apiError(401, 'cgu_not_accepted')),
        'GET /api/cgu': () => json(200, makeCguStatus({ version: '2' })),
      },
    });
    await userEvent.setup().click(await screen.findByTestId('passkey-login'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/security/accept-cgu'));
    expect(services.accountState.get().state).toBe(AccountState.CGU_CONSENT_REQUIRED);
    expect(screen.queryByTestId('biometric-error')).toBeNull();
  });

  it.each([
    ['biometric_verification_failed', 'Erreur lors de la vérification biométrique.'],
    [
      'biometric_key_invalidated',
      'Votre clé biométrique n’est plus valide. Veuillez refaire l’enrôlement biométrique.',
    ],
  ])('explains %s', async (code, message) => {
    vi.mocked(startAuthentication).mockResolvedValue(ASSERTION);
    await renderScreen(LoginPage, {
      also: NEXT_SCREENS,
      path: '/security/login',
      handlers: passkeyHandlers(() => apiError(401, code)),
    });
    await userEvent.setup().click(await screen.findByTestId('passkey-login'));
    const alert = await screen.findByTestId('biometric-error');
    expect(alert.textContent).toBe(message);
    expect(alert.getAttribute('role')).toBe('alert');
  });

  it('shows no error when the user cancels the browser prompt, only a gentle note', async () => {
    vi.mocked(startAuthentication).mockRejectedValue(notAllowed());
    const { calls } = await renderScreen(LoginPage, {
      also: NEXT_SCREENS,
      path: '/security/login',
      handlers: passkeyHandlers(() => json(200, makeUser())),
    });
    await userEvent.setup().click(await screen.findByTestId('passkey-login'));
    expect((await screen.findByRole('status')).textContent).toBe(
      'Connexion par clé d’accès annulée. Vous pouvez réessayer ou utiliser votre mot de passe.',
    );
    expect(screen.queryByTestId('biometric-error')).toBeNull();
    expect(calls.some((c) => c.url.pathname.endsWith('/verify'))).toBe(false);
  });

  it('explains a browser failure', async () => {
    const error = new Error('no authenticator');
    error.name = 'InvalidStateError';
    vi.mocked(startAuthentication).mockRejectedValue(error);
    await renderScreen(LoginPage, {
      also: NEXT_SCREENS,
      path: '/security/login',
      handlers: passkeyHandlers(() => json(200, {})),
    });
    await userEvent.setup().click(await screen.findByTestId('passkey-login'));
    expect((await screen.findByTestId('biometric-error')).textContent).toBe(
      'Votre navigateur n’a pas pu utiliser la clé d’accès.',
    );
  });

  it('offers the passkey in Arabic', async () => {
    await renderScreen(LoginPage, { also: NEXT_SCREENS, path: '/security/login', language: 'ar' });
    expect((await screen.findByTestId('passkey-login')).textContent).toBe(
      'الدخول باستخدام مفتاح المرور',
    );
  });
});

describe('biometric sign-in inside the app', () => {
  beforeEach(() => useUserAgent(NEWER_APP_UA));

  const nativeHandlers = (login: FakeHandler): Record<string, FakeHandler> => ({
    'POST /api/biometrics/native/login/challenge': () =>
      json(200, { challengeId: 'ch-9', challenge: 'c-hallenge', expiresAt: '2030-01-01' }),
    'POST /api/biometrics/native/login': login,
    'POST /api/biometrics/native/invalidated': () => json(200, { ok: true }),
  });

  it('is offered only when the device holds a key and biometrics are available', async () => {
    installBridge();
    await renderScreen(LoginPage, { also: NEXT_SCREENS, path: '/security/login' });
    await screen.findByLabelText(USERNAME);
    expect(screen.queryByTestId('biometric-login')).toBeNull();
  });

  it('is not offered when the app says biometrics are unavailable', async () => {
    localStorage.setItem('biometrics.keyId', 'key-1');
    const bridge = installBridge({ biometricAvailability: () => ({ ok: true, available: false }) });
    await renderScreen(LoginPage, { also: NEXT_SCREENS, path: '/security/login' });
    await waitFor(() => expect(bridge.some((c) => c.name === 'biometricAvailability')).toBe(true));
    await screen.findByLabelText(USERNAME);
    expect(screen.queryByTestId('biometric-login')).toBeNull();
  });

  it('signs the challenge with the app key and goes home', async () => {
    localStorage.setItem('biometrics.keyId', 'key-1');
    const bridge = installBridge({ signChallenge: () => ({ ok: true, signature: 'c2ln' }) });
    const { calls, router } = await renderScreen(LoginPage, {
      also: NEXT_SCREENS,
      path: '/security/login',
      handlers: nativeHandlers(() => json(200, makeUser())),
    });
    await userEvent
      .setup()
      .click(await screen.findByRole('button', { name: 'Se connecter avec la biométrie' }));
    await screen.findByRole('heading', { level: 1, name: 'Tableau de bord' });
    expect(router.state.location.pathname).toBe('/');
    expect(calls.find((c) => c.url.pathname.endsWith('/login/challenge'))?.body).toEqual({
      keyId: 'key-1',
    });
    const sign = bridge.find((c) => c.name === 'signChallenge');
    expect(JSON.parse(sign?.payload ?? '')).toEqual({
      keyId: 'key-1',
      challenge: 'c-hallenge',
      promptTitle: 'Connexion à Hygie',
    });
    expect(calls.find((c) => c.url.pathname === '/api/biometrics/native/login')?.body).toEqual({
      challengeId: 'ch-9',
      keyId: 'key-1',
      signature: 'c2ln',
    });
    // hideLoadingScreen: once, '' and no callback, whatever else the page asked.
    const hides = bridge.filter((c) => c.name === 'hideLoadingScreen');
    expect(hides).toEqual([{ name: 'hideLoadingScreen', payload: '', hasCallback: false }]);
  });

  it.each([
    ['the app', { ok: false, error: 'key_invalidated' }, () => json(200, makeUser())],
    [
      'the server',
      { ok: true, signature: 'c2ln' },
      () => apiError(401, 'biometric_key_invalidated'),
    ],
  ])('forgets a key invalidated by %s and asks to enrol again', async (_by, answer, login) => {
    localStorage.setItem('biometrics.keyId', 'key-1');
    const bridge = installBridge({ signChallenge: () => answer });
    const { calls } = await renderScreen(LoginPage, {
      also: NEXT_SCREENS,
      path: '/security/login',
      handlers: nativeHandlers(login),
    });
    await userEvent.setup().click(await screen.findByTestId('biometric-login'));
    expect((await screen.findByTestId('biometric-error')).textContent).toBe(
      'Votre clé biométrique n’est plus valide. Veuillez refaire l’enrôlement biométrique.',
    );
    expect(calls.find((c) => c.url.pathname.endsWith('/native/invalidated'))?.body).toEqual({
      keyId: 'key-1',
    });
    await waitFor(() =>
      expect(bridge.find((c) => c.name === 'deleteBiometricKey')?.payload).toBe(
        '{"keyId":"key-1"}',
      ),
    );
    expect(localStorage.getItem('biometrics.keyId')).toBeNull();
    expect(screen.queryByTestId('biometric-login')).toBeNull();
  });

  it.each([
    [{ ok: false, error: 'cancelled' }, null],
    [
      { ok: false, error: 'not_available' },
      'La connexion avec cette méthode est actuellement indisponible.',
    ],
    ['not json', 'L’application n’a pas pu répondre. Réessayez.'],
  ])('handles the app answer %j', async (answer, message) => {
    localStorage.setItem('biometrics.keyId', 'key-1');
    window.HygieNativeBridge = {
      call(name, _payload, callback) {
        if (name === 'biometricAvailability') callback?.('{"ok":true,"available":true}');
        if (name === 'signChallenge')
          callback?.(typeof answer === 'string' ? answer : JSON.stringify(answer));
      },
    };
    await renderScreen(LoginPage, {
      also: NEXT_SCREENS,
      path: '/security/login',
      handlers: nativeHandlers(() => json(200, makeUser())),
    });
    await userEvent.setup().click(await screen.findByTestId('biometric-login'));
    if (message) {
      expect((await screen.findByTestId('biometric-error')).textContent).toBe(message);
    } else {
      await waitFor(() =>
        expect(screen.getByTestId('biometric-login').hasAttribute('disabled')).toBe(false),
      );
      expect(screen.queryByTestId('biometric-error')).toBeNull();
    }
    expect(localStorage.getItem('biometrics.keyId')).toBe('key-1');
  });

  it('explains a verification failure of the server', async () => {
    localStorage.setItem('biometrics.keyId', 'key-1');
    installBridge({ signChallenge: () => ({ ok: true, signature: 'c2ln' }) });
    await renderScreen(LoginPage, {
      also: NEXT_SCREENS,
      path: '/security/login',
      handlers: nativeHandlers(() => apiError(401, 'biometric_verification_failed')),
    });
    await userEvent.setup().click(await screen.findByTestId('biometric-login'));
    expect((await screen.findByTestId('biometric-error')).textContent).toBe(
      'Erreur lors de la vérification biométrique.',
    );
  });
});

describe('the enrolment question after a password sign-in', () => {
  async function passwordSignIn(path = '/security/login?redirect=%2Fprofile') {
    const rendered = await renderScreen(LoginPage, {
      also: NEXT_SCREENS,
      path,
      handlers: { 'POST /api/login': () => json(200, makeUser()) },
    });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(USERNAME), 'marie.dupont@example.fr');
    await user.type(screen.getByLabelText(PASSWORD), 'Secret123');
    await user.click(screen.getByRole('button', { name: 'Se connecter' }));
    return rendered;
  }

  it('sends the app user of a device without a key to /security/biometrics', async () => {
    useUserAgent(NEWER_APP_UA);
    installBridge();
    const { router, services } = await passwordSignIn();
    await screen.findByRole('heading', { level: 1, name: 'Connexion biométrique' });
    expect(router.state.location.pathname).toBe('/security/biometrics');
    expect(router.state.location.search).toBe('?redirect=%2Fprofile');
    expect(services.biometricEnrolment.get()).toBe(true);
    expect(sessionStorage.getItem('biometricEnrolment')).toBe('1');
  });

  it.each([
    ['the device already holds a key', 'biometrics.keyId', 'key-1'],
    ['the user declined', 'biometrics.declined', '1'],
  ])('does not ask when %s', async (_name, key, value) => {
    useUserAgent(NEWER_APP_UA);
    installBridge();
    localStorage.setItem(key, value);
    const { router, services } = await passwordSignIn('/security/login');
    await screen.findByRole('heading', { level: 1, name: 'Tableau de bord' });
    expect(router.state.location.pathname).toBe('/');
    expect(services.biometricEnrolment.get()).toBe(false);
  });

  it('never asks in a browser', async () => {
    useUserAgent(CHROME_LINUX_UA);
    withWebAuthn();
    const { services } = await passwordSignIn('/security/login');
    await screen.findByRole('heading', { level: 1, name: 'Tableau de bord' });
    expect(services.biometricEnrolment.get()).toBe(false);
  });
});
