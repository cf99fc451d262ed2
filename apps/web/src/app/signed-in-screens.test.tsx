import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { userSearchQuerySchema } from '@hygie/domain';
import {
  ASSURANCE_SETTINGS,
  CGU,
  makeAdminUser,
  makeAdminUserDetail,
  makeDevice,
  makeProfile,
  SERVICES,
  SETTINGS,
  SUPPORT,
  userPage,
} from '../test/account-data';
import { A11Y_VARIANTS } from '../test/a11y';
import { makeUser } from '../test/factories';
import { json, type FakeHandler } from '../test/fake-api';
import { expectWellFormedScreen, type ScreenScenario } from '../test/screen-check';

// The signed-in area and the admin screens in their states, in every language and brand.

const HANDLERS: Record<string, FakeHandler> = {
  'GET /api/dashboard': () =>
    json(200, {
      attention: [
        { kind: 'phone_unverified' },
        { kind: 'password_expiring', at: '2025-04-10T12:00:00.000Z' },
      ],
      trustedDevices: 2,
      passwordExpiresAt: '2025-04-10T12:00:00.000Z',
    }),
  'GET /api/profile': () => json(200, makeProfile({ ins: '285047512345678' })),
  'POST /api/profile/email': () =>
    json(200, { destination: 'n•••@example.fr', retryAfterSeconds: 60 }),
  'GET /api/devices': () =>
    json(200, [makeDevice({ id: 'd-1', current: true }), makeDevice({ id: 'd-2' })]),
  'GET /api/services': () => json(200, SERVICES),
  'GET /api/support': () => json(200, SUPPORT),
  'GET /api/cgu': () => json(200, CGU),
  'GET /api/admin/settings': () => json(200, SETTINGS),
  'GET /api/admin/settings/assurance': () => json(200, ASSURANCE_SETTINGS),
  'GET /api/admin/messages': () =>
    json(200, {
      items: [
        {
          id: 'm-1',
          channel: 'email',
          recipient: 'j***@example.fr',
          template: 'password_changed',
          status: 'failed',
          attempts: 8,
          lastError: '421 4.7.0 Try again later',
          createdAt: '2025-03-01T13:05:00.000Z',
          sentAt: null,
          nextAttemptAt: null,
          expiresAt: null,
          retryable: true,
        },
      ],
      nextCursor: '1740834300000.m-1',
    }),
  'GET /api/admin/users': (request) => {
    const { status } = userSearchQuerySchema.parse(Object.fromEntries(request.url.searchParams));
    return json(200, userPage([makeAdminUser(status ? { status } : {})], status ? null : '1.u-2'));
  },
};

const professional = () =>
  json(
    200,
    makeProfile({
      profile: 'professional',
      identifierType: 'RPPS',
      identifier: '10000000007',
      job: 'Médecin',
    }),
  );

/** A scenario of this file: signed in as a patient unless `admin` or `anonymous` says otherwise. */
type Scenario = ScreenScenario & { admin?: boolean; anonymous?: boolean };

const SCENARIOS: Scenario[] = [
  {
    name: 'dashboard with attention',
    path: '/',
    act: () => screen.findAllByTestId('attention-item'),
  },
  {
    name: 'profile, patient, e-mail change code',
    path: '/profile',
    act: async (user) => {
      await user.click(await screen.findByTestId('profile-email-change'));
      await user.type(document.getElementById('profile-email-new')!, 'new@example.fr');
      await user.type(document.getElementById('profile-email-password')!, 'Secret123');
      await user.click(screen.getByTestId('profile-email-send'));
      return screen.findByTestId('code-input');
    },
  },
  {
    name: 'profile, professional, phone change form',
    path: '/profile',
    handlers: { 'GET /api/profile': professional },
    act: async (user) => {
      await user.click(await screen.findByTestId('profile-phone-change'));
      return screen.findByTestId('profile-phone-send');
    },
  },
  {
    name: 'profile editor, patient, with errors',
    path: '/profile/update',
    act: async (user) => {
      await waitFor(() => expect(document.getElementById('profile-first-name')).toBeTruthy());
      await user.clear(document.getElementById('profile-first-name')!);
      await user.click(screen.getByTestId('profile-save'));
      await waitFor(() =>
        expect(document.getElementById('profile-first-name')?.getAttribute('aria-invalid')).toBe(
          'true',
        ),
      );
    },
  },
  {
    name: 'profile editor, professional',
    path: '/profile/update',
    handlers: { 'GET /api/profile': professional },
    act: () => waitFor(() => expect(document.getElementById('profile-identifier')).toBeTruthy()),
  },
  {
    name: 'devices, delete confirmation',
    path: '/devices',
    act: async (user) => {
      const rows = await screen.findAllByTestId('device-row');
      await user.click(within(rows[1]!).getByTestId('device-delete'));
      return screen.findByTestId('confirm-dialog');
    },
  },
  {
    name: 'devices, none',
    path: '/devices',
    handlers: { 'GET /api/devices': () => json(200, []) },
    act: () => screen.findByTestId('devices-empty'),
  },
  { name: 'services', path: '/services', act: () => screen.findAllByTestId('service-card') },
  {
    name: 'services, support dialog',
    path: '/services',
    act: async (user) => {
      await user.click(await screen.findByTestId('support-open'));
      return within(await screen.findByTestId('support-dialog')).findByText('Support Hygie');
    },
  },
  {
    name: 'settings tab',
    path: '/app-settings',
    admin: true,
    act: () => screen.findAllByTestId('setting-row'),
  },
  {
    name: 'access tab with results',
    path: '/app-settings?tab=access',
    admin: true,
    act: () => screen.findByTestId('user-row'),
  },
  {
    name: 'access tab, no user found',
    path: '/app-settings?tab=access',
    admin: true,
    handlers: { 'GET /api/admin/users': () => json(200, userPage([])) },
    act: () => screen.findByTestId('no-user-found'),
  },
  {
    name: 'accounts tab',
    path: '/app-settings?tab=accounts',
    admin: true,
    act: async () => {
      await screen.findByTestId('pending-row');
      return screen.findByTestId('locked-row');
    },
  },
  {
    name: 'accounts tab, reject confirmation',
    path: '/app-settings?tab=accounts',
    admin: true,
    act: async (user) => {
      await user.click(await screen.findByTestId('account-reject'));
      return screen.findByTestId('confirm-dialog');
    },
  },
  {
    name: 'audit tab',
    path: '/app-settings?tab=audit',
    admin: true,
    handlers: {
      'GET /api/admin/audit': () =>
        json(200, {
          items: [
            {
              id: 'e-1',
              at: '2025-03-01T13:05:00.000Z',
              action: 'login_failed',
              actorId: null,
              targetId: 'u-2',
              ip: '203.0.113.9',
              userAgent: 'curl/8',
              requestId: 'req-1',
              details: null,
            },
          ],
          nextCursor: null,
        }),
    },
    act: () => screen.findByTestId('audit-row'),
  },
  {
    name: 'messages tab',
    path: '/app-settings?tab=messages',
    admin: true,
    act: () => screen.findByTestId('message-retry'),
  },
  {
    name: 'user detail',
    path: '/app-settings/users/u-2',
    at: '/app-settings/users/:userId',
    admin: true,
    handlers: { 'GET /api/admin/users/u-2': () => json(200, makeAdminUserDetail()) },
    act: () => screen.findByTestId('user-facts'),
  },
  {
    name: 'user detail, delete confirmation',
    path: '/app-settings/users/u-2',
    at: '/app-settings/users/:userId',
    admin: true,
    handlers: { 'GET /api/admin/users/u-2': () => json(200, makeAdminUserDetail()) },
    act: async (user) => {
      await user.click(await screen.findByTestId('user-action-delete'));
      return screen.findByTestId('confirm-dialog');
    },
  },
  {
    name: 'user detail, second factor asked before a deletion',
    path: '/app-settings/users/u-2',
    at: '/app-settings/users/:userId',
    admin: true,
    handlers: {
      'GET /api/admin/users/u-2': () => json(200, makeAdminUserDetail()),
      'DELETE /api/admin/users/u-2': () =>
        json(403, {
          code: 'second_factor_required',
          message: 'server',
          data: {
            user_identifier: 'admin-1',
            two_factor_providers: ['email', 'sms'],
            email_hint: 'a***@example.fr',
            sms_hint: '+33 6 ** ** ** 78',
            sms_enabled: true,
          },
        }),
      'POST /api/session/second-factor/send': () =>
        json(200, { destination: 'a***@example.fr', retryAfterSeconds: 60 }),
    },
    act: async (user) => {
      await user.click(await screen.findByTestId('user-action-delete'));
      await user.click(await screen.findByTestId('confirm-yes'));
      await user.click(await screen.findByTestId('step-up-send'));
      return screen.findByTestId('code-input');
    },
  },
  {
    name: 'oauth error naming the platform',
    path: '/oauth-error?error=access_denied&client_id=imagerie',
    anonymous: true,
    handlers: {
      'GET /api/platforms/by-client/imagerie': () =>
        json(200, { name: 'Imagerie', url: 'https://imagerie.example.fr' }),
    },
    act: () => screen.findByTestId('oauth-error-platform-link'),
  },
];

describe.each(A11Y_VARIANTS)('signed-in screens in $language with the $brand brand', (variant) => {
  it.each(SCENARIOS.map((scenario) => [scenario.name, scenario] as const))(
    `%s: one h1 in a <main>, its title${variant.axe ? ', and passes axe' : ''}`,
    (_name, { admin, anonymous, ...scenario }) =>
      expectWellFormedScreen(
        {
          ...scenario,
          user: anonymous ? null : makeUser(admin ? { roles: ['admin'] } : {}),
          handlers: { ...HANDLERS, ...scenario.handlers },
        },
        variant,
      ),
  );
});
