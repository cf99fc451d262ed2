import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startRegistration } from '@simplewebauthn/browser';
import { browser } from '../../lib/browser';
import { resetNativeLoadingScreen } from '../../lib/native-bridge';
import { expectNoAxeViolations } from '../../test/a11y';
import {
  CHROME_LINUX_UA,
  installBridge,
  NEWER_APP_UA,
  registrationResponse,
  removeBridge,
  useUserAgent,
  withWebAuthn,
} from '../../test/biometrics';
import { makeUser } from '../../test/factories';
import { apiError, json, type FakeHandler } from '../../test/fake-api';
import { renderScreen } from '../../test/render-screen';
import BiometricsPage from './biometrics-page';

vi.mock('@simplewebauthn/browser', () => ({
  startAuthentication: vi.fn(),
  startRegistration: vi.fn(),
}));

const KEY = { ok: true, keyId: 'a2V5LTE', publicKey: 'cHVi', signature: 'c2ln' };

async function enrolmentPage(options: {
  path?: string;
  handlers?: Record<string, FakeHandler>;
  language?: 'fr' | 'en' | 'ar';
}) {
  sessionStorage.setItem('biometricEnrolment', '1');
  const rendered = await renderScreen(BiometricsPage, {
    path: options.path ?? '/security/biometrics?redirect=%2Fprofile',
    user: makeUser(),
    language: options.language ?? 'fr',
    handlers: {
      'POST /api/biometrics/native/enrol/challenge': () =>
        json(200, { challengeId: 'ch-1', challenge: 'the-challenge', expiresAt: '2030-01-01' }),
      'POST /api/biometrics/native/enrol': () => json(200, { ok: true }),
      ...options.handlers,
    },
  });
  return rendered;
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  removeBridge();
  resetNativeLoadingScreen();
});

describe('biometric enrolment in the app', () => {
  beforeEach(() => useUserAgent(NEWER_APP_UA));

  it('asks the question with the warning and a link back to normal login', async () => {
    installBridge();
    const { container } = await enrolmentPage({});
    await screen.findByRole('heading', { level: 1, name: 'Connexion biométrique' });
    expect(
      await screen.findByText(
        'Voulez-vous vous connecter avec votre empreinte digitale ou la reconnaissance faciale sur cet appareil ?',
      ),
    ).toBeTruthy();
    expect(screen.getByTestId('biometrics-warning').textContent).toBe(
      'Attention : toute personne dont l’empreinte digitale ou le visage est enregistré sur cet appareil pourra se connecter à votre compte.',
    );
    expect(
      screen.getByRole('link', { name: 'Revenir à la connexion normale' }).getAttribute('href'),
    ).toBe('/security/login?redirect=%2Fprofile');
    expect(screen.getByLabelText<HTMLInputElement>(/^Nom de cet appareil/).value).toBe(
      'Application mobile (Android)',
    );
    await expectNoAxeViolations(container);
  });

  it('creates the key, stores it on the server and the device, then goes on', async () => {
    const bridge = installBridge({ createBiometricKey: () => KEY });
    const { calls, router, services } = await enrolmentPage({});
    await userEvent.setup().click(await screen.findByTestId('biometrics-accept'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/profile'));
    const create = bridge.find((c) => c.name === 'createBiometricKey');
    expect(create?.hasCallback).toBe(true);
    expect(JSON.parse(create?.payload ?? '')).toEqual({
      challenge: 'the-challenge',
      promptTitle: 'Activer la connexion biométrique',
      promptSubtitle: 'Confirmez votre identité pour créer votre clé biométrique sur cet appareil',
    });
    expect(calls.find((c) => c.url.pathname === '/api/biometrics/native/enrol')?.body).toEqual({
      challengeId: 'ch-1',
      keyId: 'a2V5LTE',
      publicKey: 'cHVi',
      signature: 'c2ln',
      deviceName: 'Application mobile (Android)',
    });
    expect(localStorage.getItem('biometrics.keyId')).toBe('a2V5LTE');
    expect(services.biometricEnrolment.get()).toBe(false);
    expect(sessionStorage.getItem('biometricEnrolment')).toBeNull();
    expect(bridge.filter((c) => c.name === 'hideLoadingScreen')).toHaveLength(1);
  });

  it('asks the password again when the sign-in is not recent, in Arabic too, then enrols', async () => {
    const bridge = installBridge({ createBiometricKey: () => KEY });
    let proven = false;
    const { router, calls, container } = await enrolmentPage({
      language: 'ar',
      handlers: {
        'POST /api/biometrics/native/enrol/challenge': () =>
          proven
            ? json(200, {
                challengeId: 'ch-1',
                challenge: 'the-challenge',
                expiresAt: '2030-01-01',
              })
            : apiError(403, 'reauthentication_required'),
        'POST /api/session/reauthenticate': () => {
          proven = true;
          return json(200, { ok: true });
        },
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('biometrics-accept'));
    expect((await screen.findByTestId('step-up')).textContent).toContain(
      'للمتابعة، أكّد كلمة المرور الخاصة بك.',
    );
    expect(bridge.some((c) => c.name === 'createBiometricKey')).toBe(false);
    await expectNoAxeViolations(container);
    // Without the password, nothing is sent.
    await user.click(screen.getByTestId('biometrics-accept'));
    expect(calls.filter((c) => c.url.pathname === '/api/session/reauthenticate')).toHaveLength(0);
    await user.type(screen.getByLabelText(/^كلمة المرور/), 'Mon-Mot-De-Passe-1');
    await user.click(screen.getByTestId('biometrics-accept'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/profile'));
    expect(calls.find((c) => c.url.pathname === '/api/session/reauthenticate')?.body).toEqual({
      password: 'Mon-Mot-De-Passe-1',
    });
    expect(calls.filter((c) => c.url.pathname === '/api/biometrics/native/enrol')).toHaveLength(1);
  });

  it('follows a same-origin target_uri once answered', async () => {
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    installBridge({ createBiometricKey: () => KEY });
    await enrolmentPage({ path: '/security/biometrics?target_uri=%2Foidc%2Finteraction%2Fx' });
    await userEvent.setup().click(await screen.findByTestId('biometrics-accept'));
    await waitFor(() =>
      expect(assign).toHaveBeenCalledWith(`${window.location.origin}/oidc/interaction/x`),
    );
  });

  it('remembers a refusal on the device and goes home', async () => {
    const bridge = installBridge();
    const { router, calls } = await enrolmentPage({ path: '/security/biometrics' });
    await userEvent.setup().click(await screen.findByTestId('biometrics-decline'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(localStorage.getItem('biometrics.declined')).toBe('1');
    expect(calls.some((c) => c.url.pathname.includes('/enrol'))).toBe(false);
    expect(bridge.some((c) => c.name === 'createBiometricKey')).toBe(false);
  });

  it('leaves the question for normal login without remembering a refusal', async () => {
    installBridge();
    const { router, services } = await enrolmentPage({ path: '/security/biometrics' });
    await userEvent
      .setup()
      .click(await screen.findByRole('link', { name: 'Revenir à la connexion normale' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(services.biometricEnrolment.get()).toBe(false);
    expect(localStorage.getItem('biometrics.declined')).toBeNull();
  });

  it('explains an enrolment error of the app', async () => {
    installBridge({ createBiometricKey: () => ({ ok: false, error: 'enrol_failed' }) });
    const { router } = await enrolmentPage({});
    await userEvent.setup().click(await screen.findByTestId('biometrics-accept'));
    const alert = await screen.findByTestId('biometric-error');
    expect(alert.textContent).toBe('L’enrôlement biométrique a échoué.');
    expect(alert.getAttribute('role')).toBe('alert');
    expect(router.state.location.pathname).toBe('/security/biometrics');
    expect(localStorage.getItem('biometrics.keyId')).toBeNull();
  });

  it('says nothing when the user cancels the prompt', async () => {
    installBridge({ createBiometricKey: () => ({ ok: false, error: 'cancelled' }) });
    await enrolmentPage({});
    await userEvent.setup().click(await screen.findByTestId('biometrics-accept'));
    await waitFor(() =>
      expect(screen.getByTestId('biometrics-accept').hasAttribute('disabled')).toBe(false),
    );
    expect(screen.queryByTestId('biometric-error')).toBeNull();
  });

  it('explains a refusal of the server and drops the key on the device', async () => {
    const bridge = installBridge({ createBiometricKey: () => KEY });
    await enrolmentPage({
      handlers: {
        'POST /api/biometrics/native/enrol': () => apiError(400, 'biometric_enrolment_failed'),
      },
    });
    await userEvent.setup().click(await screen.findByTestId('biometrics-accept'));
    expect((await screen.findByTestId('biometric-error')).textContent).toBe(
      'L’enrôlement biométrique a échoué.',
    );
    expect(bridge.find((c) => c.name === 'deleteBiometricKey')?.payload).toBe(
      '{"keyId":"a2V5LTE"}',
    );
    expect(localStorage.getItem('biometrics.keyId')).toBeNull();
  });

  it('says biometrics are unavailable and lets the user continue', async () => {
    installBridge({ biometricAvailability: () => ({ ok: true, available: false }) });
    const { router } = await enrolmentPage({ path: '/security/biometrics' });
    expect(
      (await screen.findByText('La connexion biométrique n’est pas disponible sur cet appareil.'))
        .textContent,
    ).toBeTruthy();
    expect(screen.queryByTestId('biometrics-accept')).toBeNull();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Continuer' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('is in Arabic, right to left', async () => {
    installBridge();
    await enrolmentPage({ language: 'ar' });
    expect((await screen.findByTestId('biometrics-warning')).textContent).toBe(
      'تنبيه: يستطيع كل شخص سُجّلت بصمته أو وجهه على هذا الجهاز الدخول إلى حسابك.',
    );
    expect(document.documentElement.dir).toBe('rtl');
  });
});

describe('biometric enrolment in a browser', () => {
  beforeEach(() => {
    useUserAgent(CHROME_LINUX_UA);
    withWebAuthn();
  });

  it('registers a passkey with an editable device name', async () => {
    const credential = registrationResponse('new-cred');
    vi.mocked(startRegistration).mockResolvedValue(credential);
    const { calls, router } = await enrolmentPage({
      handlers: {
        'POST /api/biometrics/webauthn/registration/options': () =>
          json(200, { challengeId: 'rc-1', options: { challenge: 'x' } }),
        'POST /api/biometrics/webauthn/registration/verify': () => json(200, { ok: true }),
      },
    });
    const user = userEvent.setup();
    const name = await screen.findByLabelText<HTMLInputElement>(/^Nom de cet appareil/);
    expect(name.value).toBe('Chrome sur Linux');
    await user.clear(name);
    await user.type(name, 'Mon PC');
    await user.click(screen.getByTestId('biometrics-accept'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/profile'));
    expect(startRegistration).toHaveBeenCalledWith({ optionsJSON: { challenge: 'x' } });
    expect(calls.find((c) => c.url.pathname.endsWith('/registration/verify'))?.body).toEqual({
      challengeId: 'rc-1',
      deviceName: 'Mon PC',
      response: credential,
    });
  });
});

describe('the first passkey enrolled on the enrolment screen', () => {
  beforeEach(() => {
    useUserAgent(CHROME_LINUX_UA);
    withWebAuthn();
  });

  it('shows the recovery codes the server made, once, before the sign-in goes on', async () => {
    vi.mocked(startRegistration).mockResolvedValue(registrationResponse('first-cred'));
    const codes = Array.from({ length: 10 }, (_, i) => `ABCD-EFGH-JK${String(i).padStart(2, '0')}`);
    const { router } = await enrolmentPage({
      handlers: {
        'POST /api/biometrics/webauthn/registration/options': () =>
          json(200, { challengeId: 'rc-2', options: { challenge: 'y' } }),
        'POST /api/biometrics/webauthn/registration/verify': () =>
          json(200, { ok: true, recoveryCodes: codes }),
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('biometrics-accept'));
    const dialog = await screen.findByTestId('recovery-codes-dialog');
    for (const code of codes) expect(within(dialog).getByText(code)).toBeTruthy();
    // The sign-in waits for the user to have saved them.
    expect(router.state.location.pathname).toBe('/security/biometrics');
    await user.click(within(dialog).getByRole('checkbox'));
    await user.click(within(dialog).getByTestId('recovery-codes-done'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/profile'));
  });
});

describe('the enrolment screen without a user', () => {
  it('says to sign in first', async () => {
    await renderScreen(BiometricsPage, { path: '/security/biometrics' });
    expect(
      await screen.findByText(
        'Connectez-vous d’abord avec votre mot de passe pour activer la connexion biométrique.',
      ),
    ).toBeTruthy();
    expect(
      screen.getByRole('link', { name: 'Revenir à la connexion normale' }).getAttribute('href'),
    ).toBe('/security/login');
  });
});
