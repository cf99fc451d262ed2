import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from '../../test/a11y';
import { makeUser } from '../../test/factories';
import { apiError, json, type FakeHandler } from '../../test/fake-api';
import { renderScreen } from '../../test/render-screen';
import { MFA_DATA, pendingMe } from '../../test/stages';
import MfaPage from './mfa-page';

// The MFA screen's fallback (issue #20): "use a recovery code", typed in one text field (not digit
// boxes), in any case with spaces or dashes; after it, the user is told how many remain.

const PROVIDERS = ['totp', 'email', 'sms', 'recovery_code'] as const;

async function openMfa(
  language: 'fr' | 'en' | 'ar' = 'fr',
  verify: FakeHandler = () => json(200, { ...makeUser(), recoveryCodesLeft: 7 }),
) {
  const data = { ...MFA_DATA, two_factor_providers: [...PROVIDERS] };
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

describe('MFA screen with recovery codes', () => {
  it('offers a recovery code last, asks it in one text field, and tells how many remain', async () => {
    const { user, calls } = await openMfa();
    expect(screen.getByLabelText('Avec un code de secours')).toBeTruthy();
    await user.click(screen.getByTestId('mfa-provider-recovery'));
    await user.click(screen.getByTestId('mfa-send'));
    const field = await screen.findByTestId('mfa-recovery-code');
    expect(screen.getByRole('heading', { name: 'Saisissez un code de secours' })).toBeTruthy();
    expect(screen.queryByTestId('code-input')).toBeNull();
    expect(screen.queryByTestId('mfa-resend')).toBeNull();
    await user.type(field, 'abcd efgh-jkmn');
    await user.click(screen.getByTestId('mfa-submit'));
    expect((await screen.findByTestId('notification')).textContent).toContain(
      'Il vous reste 7 codes de secours.',
    );
    const verify = calls.filter((c) => c.url.pathname === '/api/mfa/verify');
    expect(verify.map((c) => c.body)).toEqual([
      { provider: 'recovery_code', code: 'abcd efgh-jkmn', trustDevice: false },
    ]);
    expect(calls.some((c) => c.url.pathname === '/api/mfa/send')).toBe(false);
  });

  it('refuses a code of the wrong shape before sending it, and says a used one was used', async () => {
    const { user, calls } = await openMfa('fr', () => apiError(400, 'recovery_code_already_used'));
    await user.click(screen.getByTestId('mfa-provider-recovery'));
    await user.click(screen.getByTestId('mfa-send'));
    const field = await screen.findByTestId('mfa-recovery-code');
    await user.type(field, '123456');
    await user.click(screen.getByTestId('mfa-submit'));
    expect(await screen.findByText(/12 caractères \(lettres et chiffres\)/)).toBeTruthy();
    expect(calls.some((c) => c.url.pathname === '/api/mfa/verify')).toBe(false);
    await user.clear(field);
    await user.type(field, 'ABCD-EFGH-JKMN');
    await user.click(screen.getByTestId('mfa-submit'));
    expect(await screen.findByText(/Ce code de secours a déjà servi/)).toBeTruthy();
  });

  it('tells the user to make new codes when none remain', async () => {
    const { user } = await openMfa('fr', () => json(200, { ...makeUser(), recoveryCodesLeft: 0 }));
    await user.click(screen.getByTestId('mfa-provider-recovery'));
    await user.click(screen.getByTestId('mfa-send'));
    await user.type(await screen.findByTestId('mfa-recovery-code'), 'ABCD-EFGH-JKMN');
    await user.click(screen.getByTestId('mfa-submit'));
    expect((await screen.findByTestId('notification')).textContent).toContain(
      'Vous n’avez plus de code de secours',
    );
  });

  it.each(['fr', 'ar'] as const)('passes axe in %s on both steps', async (language) => {
    const { user } = await openMfa(language);
    await user.click(screen.getByTestId('mfa-provider-recovery'));
    await expectNoAxeViolations();
    await user.click(screen.getByTestId('mfa-send'));
    await screen.findByTestId('mfa-recovery-code');
    await expectNoAxeViolations();
  });
});
