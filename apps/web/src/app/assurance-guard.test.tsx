import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AccountState } from '@hygie/domain';
import { makeUser } from '../test/factories';
import { apiError, json } from '../test/fake-api';
import { renderApp } from '../test/render-app';
import { guard, type GuardInput } from './guard';

// The account area's minimum level (issue #20): a 403 assurance_level_required from /api/me/*
// sends the user to the step-up screen, which comes back to the page once the level is reached.

function input(overrides: Partial<GuardInput>): GuardInput {
  return {
    loading: false,
    state: AccountState.LOGGED_IN,
    user: { roles: [] },
    route: {},
    biometricEnrolment: false,
    from: null,
    to: { pathname: '/sessions', search: '' },
    ...overrides,
  };
}

describe('guard: the level the account area asked for', () => {
  it('sends a signed-in user to the step-up screen, back to the page asked for', () => {
    expect(
      guard(
        input({ assuranceRequired: 'substantial', to: { pathname: '/activity', search: '?a=1' } }),
      ),
    ).toEqual({
      action: 'redirect',
      to: '/security/step-up?level=substantial&target_uri=%2Factivity%3Fa%3D1',
    });
  });

  it('lets the step-up screen itself show', () => {
    expect(
      guard(
        input({
          assuranceRequired: 'high',
          to: { pathname: '/security/step-up', search: '?level=high' },
        }),
      ),
    ).toEqual({ action: 'allow' });
  });

  it('asks nothing without a level asked for, nor of a visitor', () => {
    expect(guard(input({ assuranceRequired: null }))).toEqual({ action: 'allow' });
    expect(
      guard(
        input({
          state: AccountState.NOT_LOGGED_IN,
          user: null,
          assuranceRequired: 'low',
          route: { anonymous: true },
          to: { pathname: '/oauth-error', search: '' },
        }),
      ),
    ).toEqual({ action: 'allow' });
  });
});

describe('the account area below its minimum level', () => {
  it('turns a 403 assurance_level_required into the step-up screen for the current page', async () => {
    const { router } = await renderApp({
      path: '/sessions',
      user: makeUser(),
      handlers: {
        'GET /api/me/sessions': () =>
          apiError(403, 'assurance_level_required', { level: 'substantial' }),
        'GET /api/me/assurance': () =>
          json(200, {
            level: 'low',
            amr: ['pwd', 'otp'],
            accountMinimum: 'substantial',
            required: 'substantial',
            reached: false,
            means: [{ kind: 'totp' }],
            enrolment: [{ kind: 'totp' }],
          }),
      },
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/security/step-up'));
    const params = new URLSearchParams(router.state.location.search);
    expect(params.get('level')).toBe('substantial');
    expect(params.get('target_uri')).toBe('/sessions');
    expect((await screen.findByTestId('step-up-required')).textContent).toBe(
      'Cet espace demande un niveau de sécurité substantiel.',
    );
    // Shown once: the guard lets the user leave (cancel goes home).
    await screen.findByTestId('step-up-totp');
    await router.navigate('/');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });
});
