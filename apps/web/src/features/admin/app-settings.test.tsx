import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { settingUpdateSchema } from '@hygie/domain';
import {
  ASSURANCE_SETTINGS,
  makeAdminUser,
  makeProfile,
  makeSetting,
  SETTINGS,
  userPage,
} from '../../test/account-data';
import { expectNoAxeViolations } from '../../test/a11y';
import { elementById } from '../../test/dom';
import { makeUser } from '../../test/factories';
import { apiError, json, type FakeHandler } from '../../test/fake-api';
import { renderScreen } from '../../test/render-screen';
import AppSettingsPage from './app-settings-page';

/** Text with Intl's no-break spaces as plain ones. */
const plain = (element: Element) => (element.textContent ?? '').replace(/\s/g, ' ');

const admin = makeUser({ roles: ['admin'] });

/** The user search waits this long after the last keystroke (useDebounced's default). */
const SEARCH_DEBOUNCE_MS = 300;

function open(handlers: Record<string, FakeHandler>, language: 'fr' | 'en' | 'ar' = 'fr') {
  return renderScreen(AppSettingsPage, {
    path: '/app-settings',
    user: admin,
    language,
    handlers: {
      'GET /api/admin/settings': () => json(200, SETTINGS),
      'GET /api/admin/settings/assurance': () => json(200, ASSURANCE_SETTINGS),
      ...handlers,
    },
  });
}

const row = (key: string) =>
  screen.findAllByTestId('setting-row').then((rows) => {
    const found = rows.find((r) => r.getAttribute('data-setting-key') === key);
    if (!found) throw new Error(`no row ${key}`);
    return found;
  });

describe('application settings', () => {
  it('shows each setting as an amount and a unit, its default and last change', async () => {
    await open({});
    const password = await row('PASSWORD_EXPIRATION_DELAY');
    expect(within(password).getByTestId<HTMLInputElement>('setting-amount').value).toBe('3');
    expect(within(password).getByTestId<HTMLSelectElement>('setting-unit').value).toBe('months');
    expect(plain(within(password).getByTestId('setting-current'))).toBe(
      'Valeur actuelle : 3 mois · valeur par défaut : 6 mois',
    );
    expect(within(password).getByTestId('setting-updated').textContent).toMatch(
      /^Modifié le 1 mars 2025 .* par \u2068admin@hygie\.example\u2069$/,
    );
    const devices = await row('TRUSTED_DEVICE_DAYS');
    expect(within(devices).getByTestId<HTMLInputElement>('setting-amount').value).toBe('3');
    const units = within(devices).getByTestId<HTMLSelectElement>('setting-unit');
    expect([...units.options].map((option) => option.value)).toEqual(['years', 'months', 'days']);
    expect(within(devices).queryByTestId('setting-disable')).toBeNull();
  });

  it('saves an amount in the unit chosen', async () => {
    const { calls } = await open({
      'PUT /api/admin/settings/PASSWORD_EXPIRATION_DELAY': (request) =>
        json(200, makeSetting({ value: settingUpdateSchema.parse(request.body).value })),
    });
    const user = userEvent.setup();
    const password = await row('PASSWORD_EXPIRATION_DELAY');
    const amount = within(password).getByTestId('setting-amount');
    await user.clear(amount);
    await user.type(amount, '45');
    await user.selectOptions(within(password).getByTestId('setting-unit'), 'days');
    await user.click(within(password).getByTestId('setting-save'));
    expect((await screen.findByTestId('notification')).textContent).toContain(
      'Modifié avec succès',
    );
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({ value: 45 * 86400 });
  });

  it('confirms a save whose answer brings the row back with a new modification date', async () => {
    let listed = 0;
    await open({
      'GET /api/admin/settings': () => {
        listed += 1;
        return json(
          200,
          SETTINGS.map((setting) =>
            setting.key === 'PASSWORD_EXPIRATION_DELAY' && listed > 1
              ? { ...setting, value: 45 * 86400, updatedAt: '2025-03-02T10:00:00.000Z' }
              : setting,
          ),
        );
      },
      'PUT /api/admin/settings/PASSWORD_EXPIRATION_DELAY': (request) =>
        json(200, makeSetting({ value: settingUpdateSchema.parse(request.body).value })),
    });
    const user = userEvent.setup();
    const password = await row('PASSWORD_EXPIRATION_DELAY');
    const amount = within(password).getByTestId('setting-amount');
    await user.clear(amount);
    await user.type(amount, '45');
    await user.selectOptions(within(password).getByTestId('setting-unit'), 'days');
    await user.click(within(password).getByTestId('setting-save'));
    await waitFor(() => expect(listed).toBe(2));
    expect((await screen.findByTestId('notification')).textContent).toContain(
      'Modifié avec succès',
    );
    const saved = await row('PASSWORD_EXPIRATION_DELAY');
    expect(within(saved).getByTestId<HTMLInputElement>('setting-amount').value).toBe('45');
  });

  it('disables the password expiration with the switch', async () => {
    const { calls } = await open({
      'PUT /api/admin/settings/PASSWORD_EXPIRATION_DELAY': () =>
        json(200, makeSetting({ value: null })),
    });
    const password = await row('PASSWORD_EXPIRATION_DELAY');
    await userEvent.setup().click(within(password).getByTestId('setting-disable'));
    await waitFor(() =>
      expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({ value: null }),
    );
  });

  it('shows the bounds of a refused value', async () => {
    await open(
      {
        'PUT /api/admin/settings/TRUSTED_DEVICE_DAYS': () =>
          apiError(400, 'settings_update_failed', { key: 'TRUSTED_DEVICE_DAYS', min: 1, max: 365 }),
      },
      'en',
    );
    const user = userEvent.setup();
    const devices = await row('TRUSTED_DEVICE_DAYS');
    await user.selectOptions(within(devices).getByTestId('setting-unit'), 'years');
    await user.click(within(devices).getByTestId('setting-save'));
    expect(plain(await within(devices).findByTestId('form-error'))).toBe(
      'The settings could not be updated. The value must be between 1 day and 1 year.',
    );
  });

  it('resets to the default after confirmation, and shows a reset error', async () => {
    const { calls } = await open({
      'DELETE /api/admin/settings/PASSWORD_EXPIRATION_DELAY': () =>
        apiError(400, 'settings_reset_failed'),
    });
    const user = userEvent.setup();
    const password = await row('PASSWORD_EXPIRATION_DELAY');
    await user.click(within(password).getByTestId('setting-reset'));
    const dialog = await screen.findByTestId('confirm-dialog');
    expect(plain(dialog)).toContain('reprendra sa valeur par défaut : 6 mois.');
    await user.click(within(dialog).getByTestId('confirm-yes'));
    expect((await within(password).findByTestId('form-error')).textContent).toBe(
      'Impossible de réinitialiser la configuration.',
    );
    expect(calls.some((call) => call.method === 'DELETE')).toBe(true);
  });

  it('shows a load error', async () => {
    await open({ 'GET /api/admin/settings': () => apiError(500, 'settings_load_failed') });
    expect((await screen.findByTestId('form-error')).textContent).toBe(
      'Impossible de charger la configuration.',
    );
  });
});

describe('platform access', () => {
  afterEach(() => vi.useRealTimers());

  it('finds users and disables an access after confirmation', async () => {
    const { calls } = await open({
      'GET /api/admin/users': (request) =>
        json(200, userPage(request.url.searchParams.get('q') === 'paul' ? [makeAdminUser()] : [])),
      'PUT /api/admin/users/u-2/platforms/p-1': () =>
        json(200, {
          platformId: 'p-1',
          userId: 'u-2',
          status: 'disabled',
          usable: false,
          action: 'none',
        }),
    });
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await user.click(await screen.findByTestId('access-tab'));
    await user.type(screen.getByTestId('user-search'), 'paul');
    await act(() => vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS));
    const found = await screen.findByTestId('user-row');
    expect(found.getAttribute('data-user-email')).toBe('paul.martin@example.fr');
    expect(within(found).getByText('Professionnel de santé')).toBeTruthy();
    const toggles = within(found).getAllByTestId('platform-access-toggle');
    expect(toggles.map((toggle) => toggle.getAttribute('data-platform-name'))).toEqual([
      'Téléconsultation',
      'Imagerie',
    ]);
    await user.click(toggles[0]!);
    const dialog = await screen.findByTestId('confirm-dialog');
    expect(dialog.textContent).toContain('ne pourra plus utiliser Téléconsultation');
    await user.click(within(dialog).getByTestId('confirm-yes'));
    await waitFor(() =>
      expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({ enabled: false }),
    );
  });

  it('corrects a professional’s identity, field errors on their fields', async () => {
    let attempts = 0;
    const { calls, container } = await open({
      'GET /api/admin/users': () => json(200, userPage([makeAdminUser()])),
      'GET /api/admin/users/u-2/identity': () =>
        json(
          200,
          makeProfile({
            id: 'u-2',
            profile: 'professional',
            lastName: 'Martin',
            identifierType: 'RPPS',
            identifier: '10002909371',
          }),
        ),
      'PATCH /api/admin/users/u-2/identity': () =>
        ++attempts === 1
          ? apiError(400, 'validation_error', {
              fields: [{ path: 'identifier.value', message: 'identifier_taken' }],
            })
          : json(
              200,
              makeProfile({ id: 'u-2', profile: 'professional', lastName: 'Martin-Durand' }),
            ),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('access-tab'));
    await user.click(
      await screen.findByRole('button', { name: /^Corriger l’identité de \u2068?Paul Martin/ }),
    );
    const dialog = await screen.findByRole('dialog', { name: /^Identité de \u2068?Paul Martin/ });
    const last = await waitFor(() => elementById('identity-last-name', HTMLInputElement));
    expect(last.value).toBe('Martin');
    await expectNoAxeViolations(container);
    await user.clear(last);
    await user.type(last, 'Martin-Durand');
    await user.click(within(dialog).getByTestId('identity-save'));
    await waitFor(() =>
      expect(document.getElementById('identity-identifier')?.getAttribute('aria-invalid')).toBe(
        'true',
      ),
    );
    expect(document.getElementById('identity-identifier-helper-text')?.textContent).toBe(
      'Cet identifiant est déjà utilisé.',
    );
    await user.click(within(dialog).getByTestId('identity-save'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const sent = calls.filter((call) => call.method === 'PATCH').map((call) => call.body);
    expect(sent[1]).toEqual({
      firstName: 'Marie',
      lastName: 'Martin-Durand',
      birthName: null,
      birthDate: '15/04/1985',
      birthPlaceInsee: '75056',
      sex: 'female',
      identifier: { type: 'RPPS', value: '10002909371' },
    });
  });

  it('says when no user is found, and pages forwards and back with the cursor', async () => {
    await open({
      'GET /api/admin/users': (request) => {
        const q = request.url.searchParams.get('q');
        const cursor = request.url.searchParams.get('cursor');
        if (q === 'personne') return json(200, userPage([]));
        const page = cursor === '1740000000000.u-1' ? 2 : 1;
        return json(
          200,
          userPage(
            [makeAdminUser({ id: `u-${page}`, email: `user${page}@example.fr` })],
            page === 1 ? '1740000000000.u-1' : null,
          ),
        );
      },
    });
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await user.click(await screen.findByTestId('access-tab'));
    expect((await screen.findByTestId('user-row')).getAttribute('data-user-email')).toBe(
      'user1@example.fr',
    );
    await user.click(screen.getByTestId('users-next'));
    await waitFor(() =>
      expect(screen.getByTestId('user-row').getAttribute('data-user-email')).toBe(
        'user2@example.fr',
      ),
    );
    expect(screen.getByTestId('users-next').hasAttribute('disabled')).toBe(true);
    await user.click(screen.getByTestId('users-previous'));
    await waitFor(() =>
      expect(screen.getByTestId('user-row').getAttribute('data-user-email')).toBe(
        'user1@example.fr',
      ),
    );
    await user.type(screen.getByTestId('user-search'), 'personne');
    await act(() => vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS));
    expect((await screen.findByTestId('no-user-found')).textContent).toBe(
      'Aucun utilisateur ne correspond à cette recherche.',
    );
  });
});

describe('accounts', () => {
  it('validates a pending professional, invites a person, unlocks an account', async () => {
    const { calls } = await open({
      'GET /api/admin/users': (request) => {
        const status = request.url.searchParams.get('status');
        if (status === 'pending_validation')
          return json(200, userPage([makeAdminUser({ id: 'u-3', status: 'pending_validation' })]));
        if (status === 'locked')
          return json(
            200,
            userPage([makeAdminUser({ id: 'u-4', email: 'locked@example.fr', status: 'locked' })]),
          );
        return json(200, userPage([]));
      },
      'POST /api/admin/users/u-3/validate': () => json(200, { ok: true }),
      'POST /api/admin/users/u-4/unlock': () => json(200, { ok: true }),
      'POST /api/admin/invitations': () => json(201, { userId: 'u-9' }),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('accounts-tab'));
    await user.click(await screen.findByTestId('account-validate'));
    await user.click(
      within(await screen.findByTestId('confirm-dialog')).getByTestId('confirm-yes'),
    );
    expect((await screen.findByTestId('notification')).textContent).toContain(
      'Compte de \u2068Paul Martin\u2069 validé',
    );

    await user.type(document.getElementById('invite-email')!, 'nouveau@example.fr');
    await user.selectOptions(document.getElementById('invite-profile')!, 'professional');
    await user.click(screen.getByTestId('invite-submit'));
    await waitFor(() =>
      expect(calls.find((call) => call.url.pathname === '/api/admin/invitations')?.body).toEqual({
        email: 'nouveau@example.fr',
        profile: 'professional',
        admin: false,
      }),
    );

    await user.click(await screen.findByTestId('account-unlock'));
    await user.click(
      within(await screen.findByTestId('confirm-dialog')).getByTestId('confirm-yes'),
    );
    await waitFor(() =>
      expect(calls.some((call) => call.url.pathname === '/api/admin/users/u-4/unlock')).toBe(true),
    );
  });

  it('shows an invitation refused', async () => {
    await open(
      {
        'GET /api/admin/users': () => json(200, userPage([])),
        'POST /api/admin/invitations': () => apiError(409, 'email_already_used'),
      },
      'en',
    );
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('accounts-tab'));
    expect((await screen.findByTestId('pending-empty')).textContent).toBe(
      'No account is awaiting validation.',
    );
    await user.type(document.getElementById('invite-email')!, 'taken@example.fr');
    await user.click(screen.getByTestId('invite-submit'));
    await waitFor(() =>
      expect(document.getElementById('invite-email')?.getAttribute('aria-invalid')).toBe('true'),
    );
  });
});
