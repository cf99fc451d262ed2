import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { typeCode } from '../../test/code';
import { apiError, json, type FakeHandler } from '../../test/fake-api';
import { renderScreen } from '../../test/render-screen';
import ForgotPasswordPage from './forgot-password-page';
import { CODE_ERRORS } from '../../test/stages';
import ForgotPasswordSuccessPage from '../password/forgot-password-success-page';

/** The screens this one hands over to, rendered for real when the test follows it there. */
const NEXT_SCREENS = { '/security/forgot-password/success': ForgotPasswordSuccessPage };

const SENT = { destination: '', retryAfterSeconds: 60 };

async function openForgot(handlers: Record<string, FakeHandler> = {}, path?: string) {
  const rendered = await renderScreen(ForgotPasswordPage, {
    also: NEXT_SCREENS,
    path: path ?? '/security/forgot-password',
    handlers: {
      'POST /api/password/forgot': () => json(200, SENT),
      'POST /api/password/forgot/verify': () => json(200, { resetToken: 'reset-token-1' }),
      'POST /api/password/reset': () => json(200, { ok: true }),
      ...handlers,
    },
  });
  return { ...rendered, user: userEvent.setup() };
}

type User = ReturnType<typeof userEvent.setup>;

async function request(user: User, channel: 'email' | 'sms' = 'email') {
  await user.type(
    await screen.findByLabelText(
      /^Adresse e-mail, téléphone, numéro de sécurité sociale \(INS\) ou RPPS/,
    ),
    '06 12 34 56 78',
  );
  await user.click(screen.getByTestId(`forgot-channel-${channel}`));
  await user.click(screen.getByTestId('forgot-send'));
  await screen.findByTestId('code-input');
}

async function verify(user: User, code = '123456') {
  await typeCode(user, code);
  await user.click(screen.getByTestId('forgot-verify'));
}

const bodies = (calls: { url: URL; body: unknown }[], path: string) =>
  calls.filter((call) => call.url.pathname === path).map((call) => call.body);

describe('forgotten password', () => {
  afterEach(() => vi.useRealTimers());

  it('goes through the three steps to the success page', async () => {
    const { user, calls, router } = await openForgot();
    expect((await screen.findByTestId<HTMLInputElement>('forgot-channel-email')).checked).toBe(
      true,
    );
    await request(user, 'sms');
    expect((await screen.findByRole('status')).textContent).toBe(
      'Si un compte correspond à \u206806 12 34 56 78\u2069, un code de vérification vient d’être envoyé par SMS à son numéro de mobile vérifié.',
    );
    await verify(user);
    await user.type(await screen.findByLabelText(/^Nouveau mot de passe/), 'Nouveau2025x');
    await user.type(screen.getByLabelText(/^Confirmer le mot de passe/), 'Nouveau2025x');
    await user.click(screen.getByTestId('forgot-submit'));
    const success = await screen.findByTestId('forgot-success');
    expect(success.textContent).toMatch(/^Votre mot de passe a été réinitialisé\./);
    expect(router.state.location.pathname).toBe('/security/forgot-password/success');
    expect(bodies(calls, '/api/password/forgot')).toEqual([
      { username: '06 12 34 56 78', channel: 'sms' },
    ]);
    expect(bodies(calls, '/api/password/forgot/verify')).toEqual([
      { username: '06 12 34 56 78', channel: 'sms', code: '123456' },
    ]);
    expect(bodies(calls, '/api/password/reset')).toEqual([
      {
        resetToken: 'reset-token-1',
        password: 'Nouveau2025x',
        passwordConfirmation: 'Nouveau2025x',
      },
    ]);
    expect(screen.getByRole('link', { name: 'Aller à la connexion maintenant' })).toBeTruthy();
  });

  it('keeps the flow parameters to the success page', async () => {
    const { user, router } = await openForgot({}, '/security/forgot-password?redirect=%2Fdevices');
    await request(user);
    await verify(user);
    await user.type(await screen.findByLabelText(/^Nouveau mot de passe/), 'Nouveau2025x');
    await user.type(screen.getByLabelText(/^Confirmer le mot de passe/), 'Nouveau2025x');
    await user.click(screen.getByTestId('forgot-submit'));
    await screen.findByTestId('forgot-success');
    expect(router.state.location.search).toBe('?redirect=%2Fdevices');
  });

  it('requires the username', async () => {
    const { user, calls } = await openForgot();
    await user.click(await screen.findByTestId('forgot-send'));
    expect(await screen.findByText('Ce champ est obligatoire.')).toBeTruthy();
    expect(bodies(calls, '/api/password/forgot')).toEqual([]);
  });

  it('says how long to wait before asking again', async () => {
    const { user } = await openForgot({
      'POST /api/password/forgot': () =>
        apiError(429, 'wait_before_retry', { retryAfterSeconds: 50 }),
    });
    await user.type(await screen.findByLabelText(/^Adresse e-mail, téléphone/), 'marie@example.fr');
    await user.click(screen.getByTestId('forgot-send'));
    expect((await screen.findByTestId('form-error')).textContent).toBe(
      'Veuillez patienter 50 secondes avant de réessayer.',
    );
  });

  it('sends the code again after the countdown', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let sends = 0;
    const { user, calls } = await openForgot({
      'POST /api/password/forgot': () =>
        json(200, { destination: '', retryAfterSeconds: ++sends === 1 ? 1 : 60 }),
    });
    await request(user);
    const resend = screen.getByTestId('forgot-resend');
    expect(resend.textContent).toBe('Renvoyer le code dans 1 seconde');
    await act(() => vi.advanceTimersByTimeAsync(1000));
    await waitFor(() => expect(resend.textContent).toBe('Renvoyer le code'));
    await user.click(resend);
    await screen.findByText(/un nouveau code vient d’être envoyé à son adresse e-mail\.$/);
    expect(bodies(calls, '/api/password/forgot')).toHaveLength(2);
  });

  it.each(CODE_ERRORS.filter(([code]) => code !== 'too_many_trials'))(
    'explains %s',
    async (code, data, message) => {
      const { user } = await openForgot({
        'POST /api/password/forgot/verify': () => apiError(400, code, data),
      });
      await request(user);
      await verify(user);
      expect((await screen.findByTestId('form-error')).textContent).toBe(message);
    },
  );

  it('on too many tries, says to restart and goes back to step 1', async () => {
    const { user } = await openForgot({
      'POST /api/password/forgot/verify': () => apiError(400, 'too_many_trials'),
    });
    await request(user);
    await verify(user);
    expect((await screen.findByTestId('form-error')).textContent).toBe(
      'Trop d’essais : ce code n’est plus valable. Recommencez la procédure pour en recevoir un nouveau.',
    );
    expect(screen.queryByTestId('forgot-verify')).toBeNull();
    await user.click(screen.getByTestId('forgot-restart'));
    expect(
      (await screen.findByLabelText<HTMLInputElement>(/^Adresse e-mail, téléphone/)).value,
    ).toBe('06 12 34 56 78');
    expect(screen.getByTestId('forgot-send')).toBeTruthy();
  });

  it('explains an expired reset token and offers to restart', async () => {
    const { user } = await openForgot({
      'POST /api/password/reset': () => apiError(400, 'link_expired'),
    });
    await request(user);
    await verify(user);
    await user.type(await screen.findByLabelText(/^Nouveau mot de passe/), 'Nouveau2025x');
    await user.type(screen.getByLabelText(/^Confirmer le mot de passe/), 'Nouveau2025x');
    await user.click(screen.getByTestId('forgot-submit'));
    expect((await screen.findByTestId('form-error')).textContent).toBe(
      'Ce lien de connexion a expiré.',
    );
    await user.click(screen.getByTestId('forgot-restart'));
    expect(await screen.findByTestId('forgot-send')).toBeTruthy();
  });

  it('shows a too common password on its field', async () => {
    const { user } = await openForgot({
      'POST /api/password/reset': () => apiError(400, 'password_too_common'),
    });
    await request(user);
    await verify(user);
    await user.type(await screen.findByLabelText(/^Nouveau mot de passe/), 'Nouveau2025x');
    await user.type(screen.getByLabelText(/^Confirmer le mot de passe/), 'Nouveau2025x');
    await user.click(screen.getByTestId('forgot-submit'));
    expect(
      await screen.findByText('Ce mot de passe est trop courant. Choisissez-en un autre.'),
    ).toBeTruthy();
    expect(document.getElementById('forgot-password')?.getAttribute('aria-invalid')).toBe('true');
  });

  it('says the new password must differ from the current one, on its field', async () => {
    const { user } = await openForgot({
      'POST /api/password/reset': () => apiError(400, 'password_must_differ'),
    });
    await request(user);
    await verify(user);
    await user.type(await screen.findByLabelText(/^Nouveau mot de passe/), 'Nouveau2025x');
    await user.type(screen.getByLabelText(/^Confirmer le mot de passe/), 'Nouveau2025x');
    await user.click(screen.getByTestId('forgot-submit'));
    expect(
      await screen.findByText('Le nouveau mot de passe doit être différent de l’ancien.'),
    ).toBeTruthy();
    expect(document.getElementById('forgot-password')?.getAttribute('aria-invalid')).toBe('true');
  });

  it('opens on the new password with the token of a link an admin sent, and clears it from the address', async () => {
    const bodies: unknown[] = [];
    const { user, router } = await openForgot(
      {
        'POST /api/password/reset': (request) => {
          bodies.push(request.body);
          return json(200, { ok: true });
        },
      },
      '/security/forgot-password?token=admin-link-token',
    );
    await user.type(await screen.findByLabelText(/^Nouveau mot de passe/), 'Nouveau2025x');
    await user.type(screen.getByLabelText(/^Confirmer le mot de passe/), 'Nouveau2025x');
    expect(router.state.location.search).toBe('');
    await user.click(screen.getByTestId('forgot-submit'));
    // The token leaves the address while the user types: the focus stays in the field (the
    // focus moves to the page's content only when the page changes).
    await waitFor(() =>
      expect(bodies).toEqual([
        {
          resetToken: 'admin-link-token',
          password: 'Nouveau2025x',
          passwordConfirmation: 'Nouveau2025x',
        },
      ]),
    );
    await waitFor(() =>
      expect(router.state.location.pathname).toBe('/security/forgot-password/success'),
    );
  });
});
