import { describe, expect, it } from 'vitest';
import { AccountState } from '@hygie/domain';
import { guard, type GuardInput, type RouteMeta } from './guard';

// The terms screen is anonymous-only (spec §2) but a signed-in user reads the terms there: the
// version in force, or the one they accepted (`?version=`), from the services page.
const TERMS: RouteMeta = { anonymousOnly: true, readableSignedIn: true };
const LOGIN: RouteMeta = { anonymousOnly: true };

function at(url: string) {
  const [pathname = '/', query] = url.split('?');
  return { pathname, search: query ? `?${query}` : '' };
}

function input(overrides: Partial<Omit<GuardInput, 'to'>> & { to: string }): GuardInput {
  const { to, ...rest } = overrides;
  return {
    loading: false,
    state: AccountState.LOGGED_IN,
    user: { roles: [] },
    route: TERMS,
    biometricEnrolment: false,
    from: null,
    ...rest,
    to: at(to),
  };
}

describe('a screen a signed-in user may read', () => {
  it('opens for a signed-in user asking for a version, where another anonymous-only screen sends them home', () => {
    expect(guard(input({ to: '/security/accept-cgu?version=2026-01' }))).toEqual({
      action: 'allow',
    });
    // Without a version to read it is the acceptance screen: a sign-in completed there goes home.
    expect(guard(input({ to: '/security/accept-cgu' }))).toEqual({ action: 'redirect', to: '/' });
    expect(guard(input({ route: LOGIN, to: '/security/login' }))).toEqual({
      action: 'redirect',
      to: '/',
    });
  });

  it('opens for a visitor without a user too', () => {
    const anonymous = input({
      state: AccountState.NOT_LOGGED_IN,
      user: null,
      to: '/security/accept-cgu',
    });
    expect(guard(anonymous)).toEqual({ action: 'allow' });
  });

  it('does not take a pending sign-in away from its own screen', () => {
    const pending = input({
      state: AccountState.MFA_REQUIRED,
      to: '/security/accept-cgu?version=2026-01',
    });
    expect(guard(pending)).toMatchObject({ action: 'redirect', to: '/security/mfa' });
  });

  it('still sends a biometric enrolment to its screen', () => {
    const enrolling = input({
      biometricEnrolment: true,
      to: '/security/accept-cgu?version=2026-01',
    });
    expect(guard(enrolling)).toMatchObject({ action: 'redirect', to: '/security/biometrics' });
  });
});
