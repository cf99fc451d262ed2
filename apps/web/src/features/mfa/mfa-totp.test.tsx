import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from '../../test/a11y';
import { typeCode } from '../../test/code';
import { makeUser } from '../../test/factories';
import { apiError, json } from '../../test/fake-api';
import { renderScreen } from '../../test/render-screen';
import { MFA_DATA, pendingMe } from '../../test/stages';
import MfaPage from './mfa-page';

const WITH_APP = { ...MFA_DATA, two_factor_providers: ['totp', 'email', 'sms'] as const };

async function openMfa(language: 'fr' | 'en' | 'ar' = 'fr', verify = () => json(200, makeUser())) {
  const data = { ...WITH_APP, two_factor_providers: [...WITH_APP.two_factor_providers] };
  const rendered = await renderScreen(MfaPage, {
    path: '/security/mfa',
    language,
    me: pendingMe('two_factor_authentication_required', data),
    handlers: {
      'GET /api/mfa': () => json(200, data),
      'POST /api/mfa/verify': verify,
    },
  });
  await screen.findByTestId('mfa-send');
  return { ...rendered, user: userEvent.setup() };
}

describe('MFA screen with an authenticator app', () => {
  it('offers the app first and chosen, then asks its code in digit fields without sending anything', async () => {
    const { user, calls } = await openMfa();
    const radios = within(screen.getByRole('radiogroup')).getAllByRole('radio');
    expect(radios[0]).toBe(screen.getByTestId('mfa-provider-totp'));
    expect(screen.getByTestId<HTMLInputElement>('mfa-provider-totp').checked).toBe(true);
    expect(screen.getByLabelText('Avec mon application d’authentification')).toBeTruthy();
    await user.click(screen.getByTestId('mfa-send'));
    await screen.findByTestId('code-input');
    expect(screen.getByRole('heading', { name: 'Saisissez le code de votre application' }));
    expect(screen.queryByTestId('mfa-resend')).toBeNull();
    await typeCode(user, '654321');
    await user.click(screen.getByTestId('mfa-submit'));
    const verify = calls.filter((c) => c.url.pathname === '/api/mfa/verify');
    expect(verify.map((c) => c.body)).toEqual([
      { provider: 'totp', code: '654321', trustDevice: false },
    ]);
    expect(calls.some((c) => c.url.pathname === '/api/mfa/send')).toBe(false);
  });

  it('says a replayed code was used already, and lets another method be chosen', async () => {
    const { user } = await openMfa('fr', () => apiError(400, 'code_already_used'));
    await user.click(screen.getByTestId('mfa-send'));
    await screen.findByTestId('code-input');
    await typeCode(user, '654321');
    await user.click(screen.getByTestId('mfa-submit'));
    expect(await screen.findByText(/Ce code a déjà servi/)).toBeTruthy();
    await user.click(screen.getByTestId('mfa-other-method'));
    await user.click(await screen.findByTestId('mfa-provider-email'));
    expect(screen.getByTestId('mfa-send').textContent).toBe('Envoyer le code');
  });

  it.each(['fr', 'ar'] as const)('passes axe in %s on both steps', async (language) => {
    const { user } = await openMfa(language);
    await expectNoAxeViolations();
    await user.click(screen.getByTestId('mfa-send'));
    await screen.findByTestId('code-input');
    await expectNoAxeViolations();
  });
});
