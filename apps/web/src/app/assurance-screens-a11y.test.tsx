import { screen } from '@testing-library/react';
import { describe, it } from 'vitest';
import type { Assurance } from '@hygie/domain';
import { A11Y_VARIANTS } from '../test/a11y';
import { makeUser } from '../test/factories';
import { json } from '../test/fake-api';
import { expectWellFormedScreen, type ScreenScenario } from '../test/screen-check';

// The step-up screen and the account area's level (issue #20) in every language and brand: one
// h1 in a <main>, the title, and axe once per language.

const INTERACTION = encodeURIComponent('/oidc/interaction/abc');

const answer = (overrides: Partial<Assurance>): Assurance => ({
  level: 'low',
  amr: ['pwd', 'otp'],
  accountMinimum: null,
  required: 'substantial',
  reached: false,
  means: [],
  enrolment: [],
  ...overrides,
});

const PLATFORM = {
  'GET /api/platforms/by-client/imagerie': () =>
    json(200, { name: 'Imagerie', url: 'https://imagerie.example.fr' }),
};

const SCENARIOS: ScreenScenario[] = [
  {
    name: 'step-up with the authenticator app and a provider',
    path: `/security/step-up?level=substantial&target_uri=${INTERACTION}&client_id=imagerie`,
    handlers: {
      ...PLATFORM,
      'GET /api/me/assurance': () =>
        json(
          200,
          answer({
            means: [{ kind: 'totp' }, { kind: 'provider', id: 'psc', name: 'Pro Santé Connect' }],
          }),
        ),
    },
    act: () => screen.findByTestId('step-up-totp'),
  },
  {
    name: 'step-up without a means: how to enrol one',
    path: `/security/step-up?level=substantial&target_uri=${INTERACTION}&client_id=imagerie`,
    handlers: {
      ...PLATFORM,
      'GET /api/me/assurance': () =>
        json(
          200,
          answer({
            enrolment: [
              { kind: 'totp' },
              { kind: 'passkey' },
              { kind: 'provider', id: 'franceconnect', name: 'FranceConnect+' },
            ],
          }),
        ),
    },
    act: () => screen.findByTestId('step-up-enrolment'),
  },
  {
    name: 'step-up asked by the account area',
    path: '/security/step-up?level=high&target_uri=%2Fsessions',
    handlers: {
      'GET /api/me/assurance': () =>
        json(200, answer({ required: 'high', means: [{ kind: 'totp' }] })),
    },
    act: () => screen.findByTestId('step-up-totp'),
  },
  {
    name: 'sessions with the current level',
    path: '/sessions',
    handlers: {
      'GET /api/me/sessions': () => json(200, []),
      'GET /api/me/assurance': () => json(200, answer({})),
    },
    act: () => screen.findByTestId('current-level-value'),
  },
];

describe.each(A11Y_VARIANTS)(
  'the levels of assurance in $language with the $brand brand',
  (variant) => {
    it.each(SCENARIOS.map((scenario) => [scenario.name, scenario] as const))(
      `%s: one h1 in a <main>, its title${variant.axe ? ', and passes axe' : ''}`,
      (_name, scenario) =>
        expectWellFormedScreen({ ...scenario, user: makeUser(), noFormError: true }, variant),
    );
  },
);
