import { describe, it } from 'vitest';
import { userSearchQuerySchema } from '@hygie/domain';
import {
  ASSURANCE_SETTINGS,
  CGU,
  makeAdminUser,
  makeDevice,
  makeProfile,
  SERVICES,
  SETTINGS,
  SUPPORT,
  userPage,
} from './account-data';
import { A11Y_VARIANTS } from './a11y';
import { makeUser } from './factories';
import { json, type FakeHandler } from './fake-api';
import { expectWellFormedScreen, type ScreenScenario } from './screen-check';

// The signed-in area and the admin screens in their states, in every language and brand: the
// answers they share, and the check each state gets (app/signed-in-screens.test.tsx and
// app/admin-screens.test.tsx, two files so that each is a share of the suite's time).

export const HANDLERS: Record<string, FakeHandler> = {
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

/** A screen's state: signed in as a patient unless `admin` or `anonymous` says otherwise. */
export type SignedInScenario = ScreenScenario & { admin?: boolean; anonymous?: boolean };

/** Checks each scenario in every language and brand (A11Y_VARIANTS), with HANDLERS under its own. */
export function describeScreens(area: string, scenarios: readonly SignedInScenario[]): void {
  describe.each(A11Y_VARIANTS)(`${area} in $language with the $brand brand`, (variant) => {
    it.each(scenarios.map((scenario) => [scenario.name, scenario] as const))(
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
}
