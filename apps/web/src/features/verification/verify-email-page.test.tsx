import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { codeDigits, typeCode } from '../../test/code';
import { makeUser } from '../../test/factories';
import { apiError, json, type FakeHandler } from '../../test/fake-api';
import { renderScreen } from '../../test/render-screen';
import VerifyEmailPage from './verify-email-page';
import { CODE_ERRORS, pendingMe } from '../../test/stages';
import DashboardPage from '../dashboard/dashboard-page';
import VerifyMobilePhonePage from '../verification/verify-mobile-phone-page';

/** The screens this one hands over to, rendered for real when the test follows it there. */
const NEXT_SCREENS = { '/': DashboardPage, '/security/verify-mobile-phone': VerifyMobilePhonePage };

const EMAIL_LABEL = /^Adresse e-mail/;
const SENT = { destination: 'm•••e@example.fr', retryAfterSeconds: 60 };

function anonymous(path: string, handlers: Record<string, FakeHandler> = {}) {
  return renderScreen(VerifyEmailPage, {
    also: NEXT_SCREENS,
    path,
    handlers: {
      'POST /api/verification/email/verify': () => json(200, { ok: true }),
      'POST /api/verification/email/send': () => json(200, SENT),
      ...handlers,
    },
  });
}

function inSession(handlers: Record<string, FakeHandler> = {}, path = '/security/verify-email') {
  return renderScreen(VerifyEmailPage, {
    also: NEXT_SCREENS,
    path,
    me: pendingMe('email_not_verified'),
    handlers: {
      'GET /api/verification': () =>
        json(200, {
          email: 'marie.dupont@example.fr',
          emailVerified: false,
          mobile_phone: '+33612345678',
          mobilePhoneVerified: false,
        }),
      'POST /api/verification/email/verify': () => json(200, makeUser()),
      'POST /api/verification/email/send': () => json(200, SENT),
      ...handlers,
    },
  });
}

const bodies = (calls: { url: URL; body: unknown }[], path: string) =>
  calls.filter((call) => call.url.pathname === path).map((call) => call.body);

describe('e-mail verification from the link (anonymous)', () => {
  it('prefills the address and the code from the query', async () => {
    await anonymous('/security/verify-email?email=marie%40example.fr&code=123%20456');
    const email = await screen.findByLabelText<HTMLInputElement>(EMAIL_LABEL);
    expect(email.id).toBe('verify-email-email');
    expect(email.value).toBe('marie@example.fr');
    expect(
      codeDigits()
        .map((digit) => digit.value)
        .join(''),
    ).toBe('123456');
  });

  it('sends {email, code} and says the address is verified', async () => {
    const { calls } = await anonymous('/security/verify-email?email=marie%40example.fr');
    const user = userEvent.setup();
    await screen.findByLabelText(EMAIL_LABEL);
    await typeCode(user, '654321');
    await user.click(screen.getByTestId('verify-email-submit'));
    expect((await screen.findByTestId('verify-email-success')).textContent).toBe(
      'Votre adresse e-mail est vérifiée. Vous pouvez maintenant vous connecter.',
    );
    expect(bodies(calls, '/api/verification/email/verify')).toEqual([
      { email: 'marie@example.fr', code: '654321' },
    ]);
    expect(screen.getByRole('link', { name: 'Se connecter' }).getAttribute('href')).toBe(
      '/security/login',
    );
  });

  it('checks the address before sending', async () => {
    const { calls } = await anonymous('/security/verify-email');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(EMAIL_LABEL), 'not-an-address');
    await typeCode(user, '123456');
    await user.click(screen.getByTestId('verify-email-submit'));
    expect(await screen.findByText('Adresse e-mail incorrecte')).toBeTruthy();
    await user.click(screen.getByTestId('verify-email-resend'));
    expect(calls.filter((call) => call.method === 'POST')).toEqual([]);
  });

  it('sends a new code to the address typed', async () => {
    const { calls } = await anonymous('/security/verify-email?email=marie%40example.fr');
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('verify-email-resend'));
    expect((await screen.findByRole('status')).textContent).toBe(
      'Si un compte non vérifié correspond à cette adresse, un nouveau code a été envoyé à \u2068m•••e@example.fr\u2069.',
    );
    expect(bodies(calls, '/api/verification/email/send')).toEqual([{ email: 'marie@example.fr' }]);
    expect(screen.getByTestId('verify-email-resend').textContent).toBe(
      'Renvoyer le code dans 1 minute',
    );
  });

  it('says how long to wait when a code was sent moments ago', async () => {
    await anonymous('/security/verify-email?email=marie%40example.fr', {
      'POST /api/verification/email/send': () =>
        apiError(429, 'wait_before_retry', { retryAfterSeconds: 1 }),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('verify-email-resend'));
    expect((await screen.findByTestId('form-error')).textContent).toBe(
      'Veuillez patienter 1 seconde avant de réessayer.',
    );
  });

  it.each(CODE_ERRORS)('explains %s', async (code, data, message) => {
    await anonymous('/security/verify-email?email=marie%40example.fr', {
      'POST /api/verification/email/verify': () => apiError(400, code, data),
    });
    const user = userEvent.setup();
    await screen.findByLabelText(EMAIL_LABEL);
    await typeCode(user, '123456');
    await user.click(screen.getByTestId('verify-email-submit'));
    expect((await screen.findByTestId('form-error')).textContent).toBe(message);
  });

  it('puts a server validation message on its field', async () => {
    await anonymous('/security/verify-email?email=marie%40example.fr', {
      'POST /api/verification/email/verify': () =>
        apiError(400, 'validation_error', {
          fields: [{ path: 'email', message: 'email_invalid' }],
        }),
    });
    const user = userEvent.setup();
    await screen.findByLabelText(EMAIL_LABEL);
    await typeCode(user, '123456');
    await user.click(screen.getByTestId('verify-email-submit'));
    expect(await screen.findByText('Adresse e-mail incorrecte')).toBeTruthy();
    expect(screen.getByLabelText(EMAIL_LABEL).getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByTestId('form-error')).toBeNull();
  });
});

describe('e-mail verification as a sign-in stage', () => {
  it('hides the address field and sends only the code, then signs in', async () => {
    const { calls, router } = await inSession();
    const user = userEvent.setup();
    expect(
      await screen.findByText(
        'Pour terminer votre connexion, confirmez votre adresse \u2068marie.dupont@example.fr\u2069 : saisissez le code à 6 chiffres reçu par e-mail.',
      ),
    ).toBeTruthy();
    expect(screen.queryByLabelText(EMAIL_LABEL)).toBeNull();
    await typeCode(user, '123456');
    await user.click(screen.getByTestId('verify-email-submit'));
    await screen.findByRole('heading', { level: 1, name: 'Tableau de bord' });
    expect(bodies(calls, '/api/verification/email/verify')).toEqual([{ code: '123456' }]);
    expect(router.state.location.pathname).toBe('/');
  });

  it('asks its own address for a new code', async () => {
    const { calls } = await inSession();
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('verify-email-resend'));
    expect((await screen.findByRole('status')).textContent).toBe(
      'Un nouveau code a été envoyé à \u2068m•••e@example.fr\u2069.',
    );
    expect(bodies(calls, '/api/verification/email/send')).toEqual([{}]);
  });

  it('moves on to the phone stage when the server names it', async () => {
    const { router } = await inSession({
      'POST /api/verification/email/verify': () => apiError(403, 'mobile_phone_not_verified'),
    });
    const user = userEvent.setup();
    await screen.findByTestId('verify-email-submit');
    await typeCode(user, '123456');
    await user.click(screen.getByTestId('verify-email-submit'));
    await screen.findByRole('heading', { level: 1, name: 'Vérification du téléphone mobile' });
    expect(router.state.location.pathname).toBe('/security/verify-mobile-phone');
  });
});
