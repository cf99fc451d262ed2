import { screen } from '@testing-library/react';
import { makeAdminUserDetail, userPage } from '../test/account-data';
import { json } from '../test/fake-api';
import { describeScreens, type SignedInScenario } from '../test/signed-in-screens';

// The admin screens in their states, in every language and brand (the signed-in area is in
// signed-in-screens.test.tsx).

const SCENARIOS: SignedInScenario[] = [
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
];

describeScreens('admin screens', SCENARIOS);
