import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AccountState } from '@hygie/domain';
import { browser } from '../../lib/browser';
import { codeDigits, typeCode } from '../../test/code';
import { elementById } from '../../test/dom';
import { makeUser } from '../../test/factories';
import { apiError, json, type FakeHandler } from '../../test/fake-api';
import { renderScreen } from '../../test/render-screen';
import MfaPage from './mfa-page';
import { CODE_ERRORS, MFA_DATA, pendingMe } from '../../test/stages';
import DashboardPage from '../dashboard/dashboard-page';
import AcceptCguPage from '../consent/accept-cgu-page';
import DevicesPage from '../devices/devices-page';

/** The screens this one hands over to, rendered for real when the test follows it there. */
const NEXT_SCREENS = {
  '/': DashboardPage,
  '/devices': DevicesPage,
  '/security/accept-cgu': AcceptCguPage,
};

const SENT = { destination: 'm•••e@example.fr', retryAfterSeconds: 60 };

async function openMfa(
  options: {
    path?: string;
    data?: typeof MFA_DATA;
    send?: FakeHandler;
    verify?: FakeHandler;
    language?: 'fr' | 'en' | 'ar';
  } = {},
) {
  const data = options.data ?? MFA_DATA;
  const rendered = await renderScreen(MfaPage, {
    also: NEXT_SCREENS,
    path: options.path ?? '/security/mfa',
    at: '/security/mfa',
    language: options.language ?? 'fr',
    me: pendingMe('two_factor_authentication_required', data),
    handlers: {
      'GET /api/mfa': () => json(200, data),
      'POST /api/mfa/send': options.send ?? (() => json(200, SENT)),
      'POST /api/mfa/verify': options.verify ?? (() => json(200, makeUser())),
    },
  });
  const user = userEvent.setup();
  await screen.findByTestId('mfa-send');
  return { ...rendered, user };
}

async function sendAndType(user: ReturnType<typeof userEvent.setup>, code = '123456') {
  await user.click(screen.getByTestId('mfa-send'));
  await screen.findByTestId('code-input');
  await typeCode(user, code);
}

const bodies = (calls: { url: URL; body: unknown }[], path: string) =>
  calls.filter((call) => call.url.pathname === path).map((call) => call.body);

describe('MFA screen', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('offers e-mail and SMS with their masked hints', async () => {
    await openMfa();
    const email = screen.getByTestId<HTMLInputElement>('mfa-provider-email');
    const sms = screen.getByTestId<HTMLInputElement>('mfa-provider-sms');
    expect(email.checked).toBe(true);
    expect(sms.disabled).toBe(false);
    expect(screen.getByLabelText('Par e-mail (\u2068m•••e@example.fr\u2069)')).toBe(email);
    expect(screen.getByLabelText('Par SMS (\u2068+33 6 •• •• •• 78\u2069)')).toBe(sms);
    expect(
      screen.getByRole('radiogroup').closest('fieldset')?.querySelector('legend')?.textContent,
    ).toBe('Recevoir le code');
  });

  it('disables SMS and says why when it is not enabled', async () => {
    await openMfa({
      data: { ...MFA_DATA, two_factor_providers: ['email'], sms_hint: null, sms_enabled: false },
    });
    const sms = screen.getByTestId<HTMLInputElement>('mfa-provider-sms');
    expect(sms.disabled).toBe(true);
    const why = screen.getByText(
      'Le SMS n’est pas disponible : aucun numéro de mobile vérifié n’est associé à votre compte.',
    );
    expect(sms.getAttribute('aria-describedby')).toBe(why.id);
  });

  it.each([
    [
      'no_phone',
      'Aucun numéro de mobile n’est associé à votre compte : le code vous est envoyé par e-mail. Vous pouvez ajouter un numéro dans votre profil.',
    ],
    [
      'phone_unverified',
      'Le SMS n’est pas disponible : votre numéro de mobile n’est pas encore vérifié. Le code vous est envoyé par e-mail.',
    ],
  ] as const)('says the truth when SMS is unavailable for %s', async (reason, text) => {
    await openMfa({
      data: {
        ...MFA_DATA,
        two_factor_providers: ['email'],
        sms_hint: null,
        sms_enabled: false,
        sms_unavailable: reason,
      },
    });
    const why = screen.getByText(text);
    expect(screen.getByTestId('mfa-provider-sms').getAttribute('aria-describedby')).toBe(why.id);
  });

  it('sends the chosen provider, then verifies the code with "trust this device"', async () => {
    const { user, calls, router, services } = await openMfa({
      send: () => json(200, { destination: '+33 6 •• •• •• 78', retryAfterSeconds: 60 }),
    });
    await user.click(screen.getByTestId('mfa-provider-sms'));
    await user.click(screen.getByTestId('mfa-send'));
    expect((await screen.findByRole('status')).textContent).toBe(
      'Un code à 6 chiffres a été envoyé à \u2068+33 6 •• •• •• 78\u2069.',
    );
    await typeCode(user, '123456');
    await user.click(screen.getByLabelText('Ne plus me demander sur cet appareil'));
    expect(elementById('mfa-trust-device', HTMLInputElement).checked).toBe(true);
    await user.click(screen.getByTestId('mfa-submit'));
    await screen.findByRole('heading', { level: 1, name: 'Tableau de bord' });
    expect(bodies(calls, '/api/mfa/send')).toEqual([{ provider: 'sms' }]);
    expect(bodies(calls, '/api/mfa/verify')).toEqual([
      { provider: 'sms', code: '123456', trustDevice: true },
    ]);
    expect(router.state.location.pathname).toBe('/');
    expect(services.accountState.get().state).toBe(AccountState.LOGGED_IN);
  });

  it('goes back to the page the visitor asked for', async () => {
    const { user, router } = await openMfa({ path: '/devices' });
    expect(router.state.location.pathname).toBe('/security/mfa');
    await sendAndType(user);
    await user.click(screen.getByTestId('mfa-submit'));
    await screen.findByRole('heading', { level: 1, name: 'Mes appareils' });
    expect(router.state.location.pathname).toBe('/devices');
  });

  it('follows a same-origin target_uri with a full navigation', async () => {
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    const { user } = await openMfa({ path: '/security/mfa?target_uri=%2Foidc%2Finteraction%2Fx' });
    await sendAndType(user);
    await user.click(screen.getByTestId('mfa-submit'));
    await waitFor(() =>
      expect(assign).toHaveBeenCalledWith(`${window.location.origin}/oidc/interaction/x`),
    );
  });

  it('hands over to the next stage the server names, keeping target_uri', async () => {
    const { user, router } = await openMfa({
      path: '/security/mfa?target_uri=%2Foidc%2Fi',
      verify: () => apiError(403, 'cgu_not_accepted'),
    });
    await sendAndType(user);
    await user.click(screen.getByTestId('mfa-submit'));
    await screen.findByRole('heading', { level: 1, name: 'Conditions générales d’utilisation' });
    expect(router.state.location.pathname).toBe('/security/accept-cgu');
    expect(new URLSearchParams(router.state.location.search).get('target_uri')).toBe('/oidc/i');
    expect(screen.queryByTestId('form-error')).toBeNull();
  });

  it('requires the six digits before calling the server', async () => {
    const { user, calls } = await openMfa();
    await sendAndType(user, '123');
    await user.click(screen.getByTestId('mfa-submit'));
    expect(await screen.findByText('Le code doit comporter 6 chiffres.')).toBeTruthy();
    expect(bodies(calls, '/api/mfa/verify')).toEqual([]);
  });

  it.each(CODE_ERRORS)('explains %s', async (code, data, message) => {
    const { user } = await openMfa({ verify: () => apiError(400, code, data) });
    await sendAndType(user);
    await user.click(screen.getByTestId('mfa-submit'));
    const alert = await screen.findByTestId('form-error');
    expect(alert.getAttribute('role')).toBe('alert');
    expect(alert.textContent).toBe(message);
    // The refused code is cleared for another try.
    expect(codeDigits().every((digit) => digit.value === '')).toBe(true);
  });

  it('resends with a countdown, and says how long to wait when asked too soon', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let sends = 0;
    const { user, calls } = await openMfa({
      send: () =>
        ++sends === 1
          ? json(200, { ...SENT, retryAfterSeconds: 1 })
          : apiError(429, 'wait_before_retry', { retryAfterSeconds: 42 }),
    });
    await user.click(screen.getByTestId('mfa-send'));
    const resend = await screen.findByTestId<HTMLButtonElement>('mfa-resend');
    expect(resend.textContent).toBe('Renvoyer le code dans 1 seconde');
    expect(resend.disabled).toBe(true);
    await act(() => vi.advanceTimersByTimeAsync(1000));
    await waitFor(() => expect(resend.textContent).toBe('Renvoyer le code'));
    await user.click(resend);
    expect((await screen.findByTestId('form-error')).textContent).toBe(
      'Veuillez patienter 42 secondes avant de réessayer.',
    );
    expect(resend.textContent).toBe('Renvoyer le code dans 42 secondes');
    expect(bodies(calls, '/api/mfa/send')).toEqual([{ provider: 'email' }, { provider: 'email' }]);
  });

  it('lets the user switch provider when the code does not come', async () => {
    const { user, calls } = await openMfa();
    await user.click(screen.getByTestId('mfa-send'));
    const notReceived = await screen.findByRole('region', { name: 'Code non reçu ?' });
    await user.click(
      within(notReceived).getByRole('button', { name: 'Choisir une autre méthode' }),
    );
    await user.click(await screen.findByTestId('mfa-provider-sms'));
    await user.click(screen.getByTestId('mfa-send'));
    await screen.findByTestId('code-input');
    expect(bodies(calls, '/api/mfa/send')).toEqual([{ provider: 'email' }, { provider: 'sms' }]);
  });

  it('says the step needs a sign-in when there is none', async () => {
    await renderScreen(MfaPage, { also: NEXT_SCREENS, path: '/security/mfa' });
    expect(
      await screen.findByText(
        'Cette étape fait partie de la connexion à votre compte. Connectez-vous d’abord avec votre identifiant et votre mot de passe.',
      ),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Se connecter' }).getAttribute('href')).toBe(
      '/security/login',
    );
  });
});
