import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { codeDigits, typeCode } from '../../test/code';
import { makeUser } from '../../test/factories';
import { apiError, json, type FakeHandler } from '../../test/fake-api';
import { renderScreen } from '../../test/render-screen';
import VerifyMobilePhonePage from './verify-mobile-phone-page';
import { CODE_ERRORS, pendingMe } from '../../test/stages';
import DashboardPage from '../dashboard/dashboard-page';

/** The screens this one hands over to, rendered for real when the test follows it there. */
const NEXT_SCREENS = { '/': DashboardPage };

const NUMBER = /^Numéro de téléphone mobile/;
const SENT = { destination: '+33 6 •• •• •• 99', retryAfterSeconds: 60 };

async function openPhone(
  handlers: Record<string, FakeHandler> = {},
  phone: string | null = '+33612345678',
  language: 'fr' | 'ar' = 'fr',
) {
  const rendered = await renderScreen(VerifyMobilePhonePage, {
    also: NEXT_SCREENS,
    path: '/security/verify-mobile-phone',
    language,
    me: pendingMe('mobile_phone_not_verified'),
    handlers: {
      'GET /api/verification': () =>
        json(200, {
          email: 'marie.dupont@example.fr',
          emailVerified: true,
          mobile_phone: phone,
          mobilePhoneVerified: false,
        }),
      'POST /api/verification/mobile-phone/change': () => json(200, SENT),
      'POST /api/verification/mobile-phone/send': () => json(200, SENT),
      'POST /api/verification/mobile-phone/verify': () => json(200, makeUser()),
      ...handlers,
    },
  });
  return { ...rendered, user: userEvent.setup() };
}

const bodies = (calls: { url: URL; body: unknown }[], path: string) =>
  calls.filter((call) => call.url.pathname === path).map((call) => call.body);

describe('mobile phone verification', () => {
  it('shows the number on file, prefilled', async () => {
    await openPhone();
    expect(
      await screen.findByText(/Numéro enregistré : \u206806 12 34 56 78\u2069\./),
    ).toBeTruthy();
    const field = await screen.findByLabelText<HTMLInputElement>(NUMBER);
    expect(field.id).toBe('verify-phone-number');
    expect(field.type).toBe('tel');
    await screen.findByDisplayValue('06 12 34 56 78');
  });

  it('shows the number form only once the number on file is known, so an early send is not lost', async () => {
    const onFile = () =>
      json(200, {
        email: 'marie.dupont@example.fr',
        emailVerified: true,
        mobile_phone: '+33612345678',
        mobilePhoneVerified: false,
      });
    // The first answer waits until the test lets it through; the reads after the send do not.
    const gate: { open?: () => void } = {};
    const { user, calls } = await openPhone({
      'GET /api/verification': () =>
        gate.open
          ? onFile()
          : new Promise<Response>((resolve) => (gate.open = () => resolve(onFile()))),
    });
    expect(await screen.findByRole('progressbar', { name: 'Chargement…' })).toBeTruthy();
    expect(screen.queryByTestId('verify-phone-send')).toBeNull();
    gate.open?.();
    await screen.findByDisplayValue('06 12 34 56 78');
    expect(screen.queryByRole('progressbar')).toBeNull();
    await user.click(screen.getByTestId('verify-phone-send'));
    await screen.findByRole('status');
    expect(bodies(calls, '/api/verification/mobile-phone/change')).toEqual([
      { phone: '+33612345678' },
    ]);
  });

  it('changes the number (sent as E.164), then verifies the SMS code', async () => {
    const { user, calls, router } = await openPhone({}, null);
    await user.type(await screen.findByLabelText(NUMBER), '06 98 76 54 99');
    await user.click(screen.getByTestId('verify-phone-send'));
    expect((await screen.findByRole('status')).textContent).toBe(
      'Un code à 6 chiffres a été envoyé à \u2068+33 6 •• •• •• 99\u2069.',
    );
    await typeCode(user, '246810');
    await user.click(screen.getByTestId('verify-phone-submit'));
    await screen.findByRole('heading', { level: 1, name: 'Tableau de bord' });
    expect(bodies(calls, '/api/verification/mobile-phone/change')).toEqual([
      { phone: '+33698765499' },
    ]);
    expect(bodies(calls, '/api/verification/mobile-phone/verify')).toEqual([{ code: '246810' }]);
    expect(router.state.location.pathname).toBe('/');
  });

  it('refuses an invalid number with the phone-screen message', async () => {
    const { user, calls } = await openPhone({}, null);
    await user.type(await screen.findByLabelText(NUMBER), '12');
    await user.click(screen.getByTestId('verify-phone-send'));
    expect(await screen.findByText('Le numéro de téléphone n’est pas valide.')).toBeTruthy();
    expect(bodies(calls, '/api/verification/mobile-phone/change')).toEqual([]);
  });

  it('sends the code again and lets the number be changed', async () => {
    const { user, calls } = await openPhone();
    await screen.findByDisplayValue('06 12 34 56 78');
    await user.click(screen.getByTestId('verify-phone-send'));
    await screen.findByTestId('code-input');
    expect(screen.getByTestId<HTMLButtonElement>('verify-phone-resend').disabled).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Modifier le numéro' }));
    expect(await screen.findByLabelText(NUMBER)).toBeTruthy();
    expect(bodies(calls, '/api/verification/mobile-phone/change')).toEqual([
      { phone: '+33612345678' },
    ]);
  });

  it('resends to the current number', async () => {
    const { user, calls } = await openPhone({
      'POST /api/verification/mobile-phone/change': () =>
        json(200, { ...SENT, retryAfterSeconds: 0 }),
    });
    await screen.findByDisplayValue('06 12 34 56 78');
    await user.click(screen.getByTestId('verify-phone-send'));
    await user.click(await screen.findByTestId('verify-phone-resend'));
    expect((await screen.findByRole('status')).textContent).toBe(
      'Un nouveau code a été envoyé à \u2068+33 6 •• •• •• 99\u2069.',
    );
    expect(bodies(calls, '/api/verification/mobile-phone/send')).toEqual([{}]);
  });

  it('says how long to wait before another code', async () => {
    const { user } = await openPhone({
      'POST /api/verification/mobile-phone/change': () =>
        apiError(429, 'wait_before_retry', { retryAfterSeconds: 30 }),
    });
    await screen.findByDisplayValue('06 12 34 56 78');
    await user.click(screen.getByTestId('verify-phone-send'));
    expect((await screen.findByTestId('form-error')).textContent).toBe(
      'Veuillez patienter 30 secondes avant de réessayer.',
    );
    // A code sent moments ago can still be typed.
    expect(screen.getByTestId('code-input')).toBeTruthy();
    expect(screen.getByTestId('verify-phone-resend').textContent).toBe(
      'Renvoyer le code dans 30 secondes',
    );
  });

  it("says the hourly cap's wait in minutes, on the message and the button", async () => {
    const { user } = await openPhone({
      'POST /api/verification/mobile-phone/change': () =>
        apiError(429, 'wait_before_retry', { retryAfterSeconds: 2980 }),
    });
    await screen.findByDisplayValue('06 12 34 56 78');
    await user.click(screen.getByTestId('verify-phone-send'));
    expect((await screen.findByTestId('form-error')).textContent).toBe(
      'Veuillez patienter 50 minutes avant de réessayer.',
    );
    expect(screen.getByTestId('verify-phone-resend').textContent).toBe(
      'Renvoyer le code dans 50 minutes',
    );
  });

  it('keeps another number on its step when a code went out moments ago', async () => {
    const { user, calls } = await openPhone({
      'POST /api/verification/mobile-phone/change': () =>
        apiError(429, 'wait_before_retry', { retryAfterSeconds: 45 }),
    });
    const field = await screen.findByLabelText<HTMLInputElement>(NUMBER);
    await screen.findByDisplayValue('06 12 34 56 78');
    await user.clear(field);
    await user.type(field, '06 98 76 54 99');
    await user.click(screen.getByTestId('verify-phone-send'));
    expect((await screen.findByTestId('form-error')).textContent).toBe(
      'Votre numéro n’a pas été modifié : un code vient d’être demandé. Vous pourrez envoyer un code à ce numéro dans 45 secondes.',
    );
    // The page stays on the number, the new number kept: nothing moved on to a code it never sent.
    expect(screen.queryByTestId('code-input')).toBeNull();
    expect(screen.getByLabelText<HTMLInputElement>(NUMBER).value).toBe('06 98 76 54 99');
    expect(bodies(calls, '/api/verification/mobile-phone/change')).toEqual([
      { phone: '+33698765499' },
    ]);
  });

  it.each(CODE_ERRORS)('explains %s', async (code, data, message) => {
    const { user } = await openPhone({
      'POST /api/verification/mobile-phone/verify': () => apiError(400, code, data),
    });
    await screen.findByDisplayValue('06 12 34 56 78');
    await user.click(screen.getByTestId('verify-phone-send'));
    await screen.findByTestId('code-input');
    await typeCode(user, '123456');
    await user.click(screen.getByTestId('verify-phone-submit'));
    expect((await screen.findByTestId('form-error')).textContent).toBe(message);
    expect(codeDigits().every((digit) => digit.value === '')).toBe(true);
  });
});
