import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { MyActivityEvent, MyConsent, MySession } from '@hygie/domain';
import { A11Y_VARIANTS } from '../../test/a11y';
import { ASSURANCE } from '../../test/account-data';
import { makeUser } from '../../test/factories';
import { apiError, json, type FakeHandler } from '../../test/fake-api';
import { renderScreen } from '../../test/render-screen';
import { expectWellFormedScreen, type ScreenScenario } from '../../test/screen-check';
import ActivityPage from './activity-page';
import PlatformAccessPage from './platform-access-page';
import SessionsPage from './sessions-page';

function makeSession(overrides: Partial<MySession> = {}): MySession {
  return {
    id: 's-1',
    device: { browser: 'Chrome', os: 'Windows' },
    ip: '203.0.113.7',
    createdAt: '2025-03-01T10:00:00.000Z',
    lastSeenAt: '2025-03-01T10:30:00.000Z',
    methods: ['pwd', 'otp'],
    level: 'low',
    complete: true,
    current: false,
    ...overrides,
  };
}

function makeEvent(overrides: Partial<MyActivityEvent> = {}): MyActivityEvent {
  return {
    id: 'e-1',
    at: '2025-03-01T10:00:00.000Z',
    action: 'login',
    by: 'me',
    ip: '203.0.113.7',
    device: { browser: 'Firefox', os: 'Linux' },
    details: {},
    ...overrides,
  };
}

function makeConsent(overrides: Partial<MyConsent> = {}): MyConsent {
  return {
    clientId: 'imagerie',
    platform: 'Imagerie',
    scopes: ['openid', 'email'],
    grantedAt: '2025-03-01T10:00:00.000Z',
    expiresAt: null,
    ...overrides,
  };
}

const SESSIONS = [
  makeSession({ id: 's-1', current: true }),
  makeSession({ id: 's-2', device: { browser: 'Safari', os: 'iOS' }, ip: null }),
  makeSession({ id: 's-3', device: { browser: null, os: null }, complete: false }),
];

const CONSENTS = [
  makeConsent(),
  makeConsent({ clientId: 'gone', platform: null, scopes: ['openid', 'health'] }),
];

describe('my sessions', () => {
  it('lists my sessions in words, the current one marked and not signed out from here', async () => {
    await renderScreen(SessionsPage, {
      path: '/sessions',
      user: makeUser(),
      handlers: { 'GET /api/me/sessions': () => json(200, SESSIONS) },
    });
    const rows = await screen.findAllByTestId('session-row');
    expect(rows.map((row) => row.getAttribute('data-current'))).toEqual(['true', 'false', 'false']);
    expect(within(rows[0]!).getByText('Chrome sur Windows')).toBeTruthy();
    expect(within(rows[0]!).getByText('Cette session')).toBeTruthy();
    expect(within(rows[0]!).getByText('mot de passe et code par e-mail')).toBeTruthy();
    expect(within(rows[0]!).queryByTestId('session-end')).toBeNull();
    expect(within(rows[1]!).getByText('Safari sur iOS')).toBeTruthy();
    expect(within(rows[1]!).getByText('Inconnu')).toBeTruthy();
    expect(within(rows[2]!).getByText('Appareil inconnu')).toBeTruthy();
    expect(within(rows[2]!).getByText('Connexion inachevée')).toBeTruthy();
    expect(document.title).toBe('Mes sessions · Hygie');
  });

  it('writes the device and the methods in Arabic words, right to left', async () => {
    await renderScreen(SessionsPage, {
      path: '/sessions',
      user: makeUser(),
      language: 'ar',
      handlers: { 'GET /api/me/sessions': () => json(200, SESSIONS) },
    });
    const [row] = await screen.findAllByTestId('session-row');
    expect(within(row!).getByText('Chrome على Windows')).toBeTruthy();
    expect(within(row!).getByText('كلمة المرور ورمز عبر البريد الإلكتروني')).toBeTruthy();
    expect(document.documentElement.dir).toBe('rtl');
  });

  it('signs one session out after confirmation; the list updates', async () => {
    let list = SESSIONS;
    const { calls } = await renderScreen(SessionsPage, {
      path: '/sessions',
      user: makeUser(),
      handlers: {
        'GET /api/me/sessions': () => json(200, list),
        'DELETE /api/me/sessions/s-2': () => {
          list = list.filter((s) => s.id !== 's-2');
          return json(200, { ok: true });
        },
      },
    });
    const user = userEvent.setup();
    const rows = await screen.findAllByTestId('session-row');
    const end = within(rows[1]!).getByTestId('session-end');
    expect(end.getAttribute('aria-label')).toContain('Safari sur iOS');
    await user.click(end);
    const dialog = await screen.findByTestId('confirm-dialog');
    expect(within(dialog).getByText(/Safari sur iOS/)).toBeTruthy();
    await user.click(within(dialog).getByTestId('confirm-no'));
    await waitFor(() => expect(screen.queryByTestId('confirm-dialog')).toBeNull());
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);

    await user.click(end);
    await user.click(
      within(await screen.findByTestId('confirm-dialog')).getByTestId('confirm-yes'),
    );
    expect((await screen.findByTestId('notification')).textContent).toContain(
      'La session est terminée.',
    );
    await waitFor(() => expect(screen.getAllByTestId('session-row')).toHaveLength(2));
    expect(calls.filter((call) => call.method === 'DELETE').map((c) => c.url.pathname)).toEqual([
      '/api/me/sessions/s-2',
    ]);
  });

  it('signs out everywhere else; alone, the button is off', async () => {
    let list = SESSIONS;
    await renderScreen(SessionsPage, {
      path: '/sessions',
      user: makeUser(),
      language: 'en',
      handlers: {
        'GET /api/me/sessions': () => json(200, list),
        'POST /api/me/sessions/end-others': () => {
          list = list.filter((s) => s.current);
          return json(200, { ended: 2 });
        },
      },
    });
    const user = userEvent.setup();
    await screen.findAllByTestId('session-row');
    await user.click(screen.getByTestId('sessions-end-others'));
    await user.click(
      within(await screen.findByTestId('confirm-dialog')).getByTestId('confirm-yes'),
    );
    expect((await screen.findByTestId('notification')).textContent).toContain(
      '2 other sessions were ended.',
    );
    await waitFor(() => expect(screen.getAllByTestId('session-row')).toHaveLength(1));
    expect(screen.getByTestId('sessions-alone').textContent).toBe('No other session is open.');
    expect(screen.getByTestId('sessions-end-others').hasAttribute('disabled')).toBe(true);
  });

  it('explains a session already gone', async () => {
    await renderScreen(SessionsPage, {
      path: '/sessions',
      user: makeUser(),
      handlers: {
        'GET /api/me/sessions': () => json(200, SESSIONS),
        'DELETE /api/me/sessions/s-2': () => apiError(404, 'not_found'),
      },
    });
    const user = userEvent.setup();
    await user.click((await screen.findAllByTestId('session-end'))[0]!);
    await user.click(
      within(await screen.findByTestId('confirm-dialog')).getByTestId('confirm-yes'),
    );
    expect((await screen.findByTestId('notification')).textContent).toContain(
      'L’élément demandé est introuvable.',
    );
  });
});

describe('my activity', () => {
  it('lists my events in words and shows more on demand', async () => {
    const { calls } = await renderScreen(ActivityPage, {
      path: '/activity',
      user: makeUser(),
      handlers: {
        'GET /api/me/activity': (request) =>
          request.url.searchParams.get('before') === '1.e-2'
            ? json(200, {
                items: [makeEvent({ id: 'e-3', action: 'password_changed' })],
                nextCursor: null,
              })
            : json(200, {
                items: [
                  makeEvent({
                    id: 'e-1',
                    action: 'login_failed',
                    by: 'nobody',
                    details: { reason: 'bad_credentials' },
                  }),
                  makeEvent({
                    id: 'e-2',
                    action: 'account_unlocked',
                    by: 'administrator',
                    ip: null,
                    device: null,
                  }),
                ],
                nextCursor: '1.e-2',
              }),
      },
    });
    const rows = await screen.findAllByTestId('activity-row');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByText('Connexion refusée')).toBeTruthy();
    expect(within(rows[0]!).getByText('mot de passe erroné')).toBeTruthy();
    expect(within(rows[0]!).getByText('Firefox sur Linux')).toBeTruthy();
    expect(within(rows[1]!).getByText('Un administrateur')).toBeTruthy();
    await userEvent.setup().click(screen.getByTestId('activity-more'));
    await waitFor(() => expect(screen.getAllByTestId('activity-row')).toHaveLength(3));
    expect(screen.getByText('Mot de passe changé')).toBeTruthy();
    expect(screen.queryByTestId('activity-more')).toBeNull();
    expect(calls.filter((c) => c.url.pathname === '/api/me/activity')).toHaveLength(2);
  });

  it('is reached from the main navigation, its "Security" item marked as the current area', async () => {
    await renderScreen(ActivityPage, {
      path: '/activity',
      user: makeUser(),
      handlers: { 'GET /api/me/activity': () => json(200, { items: [], nextCursor: null }) },
    });
    await screen.findByTestId('activity-empty');
    const main = screen.getByRole('navigation', { name: 'Navigation principale' });
    expect(within(main).getByRole('link', { name: 'Sécurité' }).getAttribute('aria-current')).toBe(
      'true',
    );
    expect(within(main).getByRole('link', { name: 'Sécurité' }).getAttribute('href')).toBe(
      '/sessions',
    );
    const area = screen.getByRole('navigation', { name: 'Sécurité du compte' });
    expect(within(area).getByRole('link', { name: 'Activité' }).getAttribute('aria-current')).toBe(
      'page',
    );
  });

  it('says when there is nothing yet', async () => {
    await renderScreen(ActivityPage, {
      path: '/activity',
      user: makeUser(),
      language: 'ar',
      handlers: { 'GET /api/me/activity': () => json(200, { items: [], nextCursor: null }) },
    });
    expect((await screen.findByTestId('activity-empty')).textContent).toBe('لا توجد أحداث بعد.');
  });
});

describe("platforms' access", () => {
  it('lists the platforms with their data in words; a deleted one is named so', async () => {
    await renderScreen(PlatformAccessPage, {
      path: '/platform-access',
      user: makeUser(),
      handlers: { 'GET /api/me/consents': () => json(200, CONSENTS) },
    });
    const rows = await screen.findAllByTestId('consent-row');
    expect(within(rows[0]!).getByText('Imagerie')).toBeTruthy();
    expect(within(rows[0]!).getByText('votre adresse e-mail')).toBeTruthy();
    expect(within(rows[1]!).getByText('Une plateforme supprimée depuis')).toBeTruthy();
    expect(within(rows[1]!).getByText(/identifiant de santé/)).toBeTruthy();
  });

  it('removes access after confirmation: the API is called and the list updates', async () => {
    let list = CONSENTS;
    const { calls } = await renderScreen(PlatformAccessPage, {
      path: '/platform-access',
      user: makeUser(),
      handlers: {
        'GET /api/me/consents': () => json(200, list),
        'DELETE /api/me/consents/imagerie': () => {
          list = list.filter((c) => c.clientId !== 'imagerie');
          return json(200, { ok: true });
        },
      },
    });
    const user = userEvent.setup();
    const rows = await screen.findAllByTestId('consent-row');
    await user.click(within(rows[0]!).getByTestId('consent-remove'));
    const dialog = await screen.findByTestId('confirm-dialog');
    expect(within(dialog).getByText(/Imagerie/)).toBeTruthy();
    await user.click(within(dialog).getByTestId('confirm-yes'));
    expect((await screen.findByTestId('notification')).textContent).toContain(
      'L’accès de la plateforme a été retiré.',
    );
    await waitFor(() => expect(screen.getAllByTestId('consent-row')).toHaveLength(1));
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.url.pathname)).toEqual([
      '/api/me/consents/imagerie',
    ]);
  });

  it('says when no platform has access', async () => {
    await renderScreen(PlatformAccessPage, {
      path: '/platform-access',
      user: makeUser(),
      language: 'en',
      handlers: { 'GET /api/me/consents': () => json(200, []) },
    });
    expect((await screen.findByTestId('consents-empty')).textContent).toBe(
      'You have not given any platform access to your data.',
    );
  });
});

const HANDLERS: Record<string, FakeHandler> = {
  'GET /api/me/sessions': () => json(200, SESSIONS),
  'GET /api/me/assurance': () => json(200, ASSURANCE),
  'GET /api/me/activity': () =>
    json(200, {
      items: [
        makeEvent(),
        makeEvent({ id: 'e-2', action: 'oidc_grant_revoked', details: { platform: 'Imagerie' } }),
      ],
      nextCursor: '1.e-2',
    }),
  'GET /api/me/consents': () => json(200, CONSENTS),
};

const SCENARIOS: ScreenScenario[] = [
  { name: 'sessions', path: '/sessions', act: () => screen.findAllByTestId('session-row') },
  {
    name: 'sessions, sign-out confirmation',
    path: '/sessions',
    act: async (user) => {
      await user.click((await screen.findAllByTestId('session-end'))[0]!);
      return screen.findByTestId('confirm-dialog');
    },
  },
  { name: 'activity', path: '/activity', act: () => screen.findByTestId('activity-more') },
  {
    name: "platforms' access, remove confirmation",
    path: '/platform-access',
    act: async (user) => {
      await user.click((await screen.findAllByTestId('consent-remove'))[0]!);
      return screen.findByTestId('confirm-dialog');
    },
  },
];

describe.each(A11Y_VARIANTS)(
  'self-service screens in $language with the $brand brand',
  (variant) => {
    it.each(SCENARIOS.map((scenario) => [scenario.name, scenario] as const))(
      `%s: one h1 in a <main>, its title${variant.axe ? ', and passes axe' : ''}`,
      (_name, scenario) =>
        expectWellFormedScreen(
          { ...scenario, user: makeUser(), handlers: { ...HANDLERS, ...scenario.handlers } },
          variant,
        ),
    );
  },
);
