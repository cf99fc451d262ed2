import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeAdminUserDetail } from '../../test/account-data';
import { expectNoAxeViolations } from '../../test/a11y';
import { typeCode } from '../../test/code';
import { makeUser } from '../../test/factories';
import { apiError, json, type FakeHandler } from '../../test/fake-api';
import { renderScreen } from '../../test/render-screen';
import UserDetailPage from './user-detail-page';

// The step-up by second factor before an admin act (issue #20): an admin with an authenticator
// app is offered its code first — no send button, the code straight away — and may still pick a
// code sent by e-mail or SMS. Recovery codes are not offered there.

const admin = makeUser({ roles: ['admin'] });

function open(handlers: Record<string, FakeHandler>, language: 'fr' | 'ar' = 'fr') {
  return renderScreen(UserDetailPage, {
    path: '/app-settings/users/u-2',
    at: '/app-settings/users/:userId',
    user: admin,
    language,
    handlers: {
      'GET /api/admin/users/u-2': () => json(200, makeAdminUserDetail()),
      ...handlers,
    },
  });
}

function lockAsking(calls: string[], proven: () => boolean): FakeHandler {
  return () => {
    calls.push('lock');
    return proven()
      ? json(200, { ok: true })
      : apiError(403, 'second_factor_required', {
          user_identifier: 'admin-1',
          two_factor_providers: ['totp', 'email', 'sms', 'recovery_code'],
          email_hint: 'a***@example.fr',
          sms_hint: '+33 6 ** ** ** 78',
          sms_enabled: true,
        });
  };
}

describe('the step-up dialog with an authenticator app', () => {
  it('offers the app’s code first, without sending anything, and posts it as totp', async () => {
    const calls: string[] = [];
    let proven = false;
    await open({
      'POST /api/admin/users/u-2/lock': lockAsking(calls, () => proven),
      'POST /api/session/second-factor/send': () => {
        calls.push('send');
        return json(200, { destination: 'a***@example.fr', retryAfterSeconds: 60 });
      },
      'POST /api/session/second-factor/verify': (request) => {
        calls.push(`verify ${JSON.stringify(request.body)}`);
        proven = true;
        return json(200, { ok: true });
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('user-action-lock'));
    const dialog = await screen.findByTestId('confirm-dialog');
    await user.click(within(dialog).getByTestId('confirm-yes'));
    await within(dialog).findByTestId('step-up-code');
    const select = within(dialog).getByLabelText<HTMLSelectElement>('Recevoir le code');
    expect([...select.options].map((o) => o.value)).toEqual(['totp', 'email', 'sms']);
    expect(select.value).toBe('totp');
    expect(select.options[0]?.textContent).toBe('Avec mon application d’authentification');
    expect(within(dialog).queryByTestId('step-up-send')).toBeNull();
    expect(within(dialog).getByText('Saisissez le code de votre application')).toBeTruthy();
    await typeCode(user, '654321');
    await user.click(within(dialog).getByTestId('confirm-yes'));
    await waitFor(() =>
      expect(calls).toEqual(['lock', 'verify {"provider":"totp","code":"654321"}', 'lock']),
    );
  });

  it('still sends a code by e-mail when chosen', async () => {
    const calls: string[] = [];
    await open({
      'POST /api/admin/users/u-2/lock': lockAsking(calls, () => false),
      'POST /api/session/second-factor/send': (request) => {
        calls.push(`send ${JSON.stringify(request.body)}`);
        return json(200, { destination: 'a***@example.fr', retryAfterSeconds: 60 });
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('user-action-lock'));
    const dialog = await screen.findByTestId('confirm-dialog');
    await user.click(within(dialog).getByTestId('confirm-yes'));
    await within(dialog).findByTestId('step-up-code');
    await user.selectOptions(within(dialog).getByLabelText('Recevoir le code'), 'email');
    await user.click(within(dialog).getByTestId('step-up-send'));
    await waitFor(() => expect(calls).toEqual(['lock', 'send {"provider":"email"}']));
  });

  it('passes axe in ar', async () => {
    await open({ 'POST /api/admin/users/u-2/lock': lockAsking([], () => false) }, 'ar');
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('user-action-lock'));
    const dialog = await screen.findByTestId('confirm-dialog');
    await user.click(within(dialog).getByTestId('confirm-yes'));
    await within(dialog).findByTestId('step-up-code');
    await expectNoAxeViolations();
  });
});
