import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeAdminUserDetail } from '../../test/account-data';
import { typeCode } from '../../test/code';
import { makeUser } from '../../test/factories';
import { apiError, json, type FakeHandler } from '../../test/fake-api';
import { renderScreen } from '../../test/render-screen';
import UserDetailPage from './user-detail-page';

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

const actionIds = () =>
  screen.getAllByTestId(/^user-action-/).map((b) => b.getAttribute('data-testid'));

describe('user detail page', () => {
  it('shows who the person is, how they sign in, what they reach and what happened', async () => {
    await open({});
    const facts = await screen.findByTestId('user-facts');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toContain('Paul Martin');
    expect(facts.textContent).toContain('paul.martin@example.fr — vérifié');
    expect(facts.textContent).toContain('RPPS 10000000007');
    expect(facts.textContent).toContain('Actif');
    expect(facts.textContent).toContain('1 mars 2025');
    expect(screen.getByTestId('user-session-row').textContent).toContain('203.0.113.7');
    expect(screen.getByTestId('user-device-row').textContent).toContain('Firefox sur Linux');
    expect(screen.getByTestId('user-key-row').textContent).toContain('Clé de Paul');
    expect(screen.getByTestId('user-platform-row').textContent).toContain('Autorisé');
    expect(screen.getByTestId('user-event-row').textContent).toContain('Connexion');
    expect(screen.getByTestId('user-consent-row').textContent).toContain('openid profile health');
    expect(actionIds()).toEqual([
      'user-action-lock',
      'user-action-disable',
      'user-action-end-sessions',
      'user-action-send-password-reset',
      'user-action-make-admin',
      'user-action-delete',
    ]);
  });

  it('offers what fits the state: unlock a locked account, resend an invitation', async () => {
    await open({
      'GET /api/admin/users/u-2': () =>
        json(
          200,
          makeAdminUserDetail({
            profile: { ...makeAdminUserDetail().profile, status: 'locked' },
            roles: ['admin'],
            invitationPending: true,
            sessions: [],
            trustedDevices: [],
          }),
        ),
    });
    await screen.findByTestId('user-facts');
    expect(actionIds()).toEqual([
      'user-action-unlock',
      'user-action-disable',
      'user-action-remove-admin',
      'user-action-delete',
    ]);
    expect(screen.getByTestId('user-facts').textContent).toContain('Invitation en attente');
    expect(screen.getByTestId('user-session-empty').textContent).toContain(
      'Aucune session ouverte.',
    );
  });

  it('asks the admin for a second factor when the server wants a fresh one, then locks', async () => {
    const calls: string[] = [];
    let proven = false;
    await open({
      'POST /api/admin/users/u-2/lock': () => {
        calls.push('lock');
        return proven
          ? json(200, { ok: true })
          : apiError(403, 'second_factor_required', {
              user_identifier: 'admin-1',
              two_factor_providers: ['email', 'sms'],
              email_hint: 'a***@example.fr',
              sms_hint: '+33 6 ** ** ** 78',
              sms_enabled: true,
            });
      },
      'POST /api/session/second-factor/send': (request) => {
        calls.push(`send ${JSON.stringify(request.body)}`);
        return json(200, { destination: '+33 6 ** ** ** 78', retryAfterSeconds: 60 });
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
    expect(dialog.textContent).toContain('Verrouiller le compte de');
    await user.click(within(dialog).getByTestId('confirm-yes'));
    await within(dialog).findByTestId('step-up-code');
    await user.selectOptions(within(dialog).getByLabelText('Recevoir le code'), 'sms');
    await user.click(within(dialog).getByTestId('step-up-send'));
    await typeCode(user, '123456');
    await user.click(within(dialog).getByTestId('confirm-yes'));
    await waitFor(() =>
      expect(calls).toEqual([
        'lock',
        'send {"provider":"sms"}',
        'verify {"provider":"sms","code":"123456"}',
        'lock',
      ]),
    );
    expect((await screen.findByTestId('notification')).textContent).toContain('est verrouillé');
    await waitFor(() => expect(screen.queryByTestId('confirm-dialog')).toBeNull());
  });

  it('tells an admin without a phone that the code goes by e-mail, not that a number is unverified', async () => {
    await open({
      'POST /api/admin/users/u-2/lock': () =>
        apiError(403, 'second_factor_required', {
          user_identifier: 'admin-1',
          two_factor_providers: ['email'],
          email_hint: 'a***@example.fr',
          sms_hint: null,
          sms_enabled: false,
          sms_unavailable: 'no_phone',
        }),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('user-action-lock'));
    const dialog = await screen.findByTestId('confirm-dialog');
    await user.click(within(dialog).getByTestId('confirm-yes'));
    await within(dialog).findByTestId('step-up-code');
    expect(within(dialog).getByTestId('step-up-sms-unavailable').textContent).toBe(
      'Aucun numéro de mobile n’est associé à votre compte : le code vous est envoyé par e-mail. Vous pouvez ajouter un numéro dans votre profil.',
    );
    expect(dialog.textContent).not.toMatch(/vérifié/);
  });

  it('says why a change is refused: the last administrator', async () => {
    await open({
      'GET /api/admin/users/u-2': () => json(200, makeAdminUserDetail({ roles: ['admin'] })),
      'POST /api/admin/users/u-2/set-role': () => apiError(409, 'last_admin'),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('user-action-remove-admin'));
    const dialog = await screen.findByTestId('confirm-dialog');
    await user.click(within(dialog).getByTestId('confirm-yes'));
    expect((await within(dialog).findByTestId('form-error')).textContent).toContain(
      'dernier administrateur actif',
    );
  });

  it('deletes the account and goes back to the users, in Arabic', async () => {
    const deleted: string[] = [];
    const { router } = await open(
      {
        'DELETE /api/admin/users/u-2': () => {
          deleted.push('u-2');
          return json(200, { ok: true });
        },
      },
      'ar',
    );
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('user-action-delete'));
    const dialog = await screen.findByTestId('confirm-dialog');
    expect(dialog.textContent).toContain('لا يمكن التراجع');
    await user.click(within(dialog).getByTestId('confirm-yes'));
    await waitFor(() => expect(deleted).toEqual(['u-2']));
    await waitFor(() => expect(router.state.location.pathname).toBe('/app-settings'));
    expect(router.state.location.search).toBe('?tab=access');
  });
});
