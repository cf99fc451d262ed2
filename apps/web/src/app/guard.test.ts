import { describe, expect, it } from 'vitest';
import { AccountState } from '@hygie/domain';
import { guard, type GuardDecision, type GuardInput, type RouteMeta } from './guard';

const PATIENT = { roles: [] };
const ADMIN = { roles: ['admin'] };
const SIGNED_IN: RouteMeta = {};
const ANONYMOUS_ONLY: RouteMeta = { anonymousOnly: true };
const OPEN: RouteMeta = { anonymous: true };
const ADMIN_ROUTE: RouteMeta = { admin: true };
const LEGAL: RouteMeta = { anonymous: true, alwaysOpen: true };

function at(url: string) {
  const [pathname = '/', query] = url.split('?');
  return { pathname, search: query ? `?${query}` : '' };
}

function input(
  overrides: Partial<Omit<GuardInput, 'to' | 'from'>> & { to: string; from?: string },
) {
  const { to, from, ...rest } = overrides;
  return {
    loading: false,
    state: AccountState.NOT_LOGGED_IN,
    user: null,
    route: SIGNED_IN,
    biometricEnrolment: false,
    ...rest,
    from: from ? at(from) : null,
    to: at(to),
  } satisfies GuardInput;
}

const allow: GuardDecision = { action: 'allow' };
const wait: GuardDecision = { action: 'wait' };
const go = (to: string): GuardDecision => ({ action: 'redirect', to });

interface Case {
  name: string;
  given: GuardInput;
  expected: GuardDecision;
}

const cases: Case[] = [
  // Rule 1: wait while loading — before anything else, even a pending state or an admin route.
  { name: '1: waits while loading', given: input({ loading: true, to: '/' }), expected: wait },
  {
    name: '1 before 2: waits even with a pending state',
    given: input({ loading: true, state: AccountState.MFA_REQUIRED, to: '/' }),
    expected: wait,
  },
  {
    name: '1 before 7: waits on an admin route',
    given: input({ loading: true, route: ADMIN_ROUTE, to: '/app-settings' }),
    expected: wait,
  },

  // Rule 1b: the legal pages are open in every state.
  {
    name: '1b: a legal page waits while loading',
    given: input({ loading: true, route: LEGAL, to: '/privacy' }),
    expected: wait,
  },
  {
    name: '1b before 2: a pending state does not take the visitor away from a legal page',
    given: input({ state: AccountState.CGU_CONSENT_REQUIRED, route: LEGAL, to: '/privacy' }),
    expected: allow,
  },
  {
    name: '1b before 4: neither does a biometric enrolment',
    given: input({
      state: AccountState.LOGGED_IN,
      user: PATIENT,
      biometricEnrolment: true,
      route: LEGAL,
      to: '/accessibility',
    }),
    expected: allow,
  },
  {
    name: '1b: a visitor and a signed-in user read them',
    given: input({ route: LEGAL, to: '/legal-notice', from: '/security/login?client_id=x' }),
    expected: allow,
  },

  // Rule 2: each pending state forces its screen.
  {
    name: '2: MFA_REQUIRED → /security/mfa',
    given: input({
      state: AccountState.MFA_REQUIRED,
      route: ANONYMOUS_ONLY,
      to: '/security/login',
    }),
    expected: go('/security/mfa'),
  },
  {
    name: '2: PASSWORD_EXPIRED → /security/password-renewal',
    given: input({ state: AccountState.PASSWORD_EXPIRED, to: '/' }),
    expected: go('/security/password-renewal'),
  },
  {
    name: '2: PASSWORD_CREATION_REQUIRED → /security/password-renewal',
    given: input({ state: AccountState.PASSWORD_CREATION_REQUIRED, to: '/' }),
    expected: go('/security/password-renewal'),
  },
  {
    name: '2: EMAIL_VERIFICATION_REQUIRED → /security/verify-email',
    given: input({ state: AccountState.EMAIL_VERIFICATION_REQUIRED, to: '/' }),
    expected: go('/security/verify-email'),
  },
  {
    name: '2: MOBILE_PHONE_VERIFICATION_REQUIRED → /security/verify-mobile-phone',
    given: input({ state: AccountState.MOBILE_PHONE_VERIFICATION_REQUIRED, to: '/' }),
    expected: go('/security/verify-mobile-phone'),
  },
  {
    name: '2: CGU_CONSENT_REQUIRED → /security/accept-cgu',
    given: input({ state: AccountState.CGU_CONSENT_REQUIRED, to: '/' }),
    expected: go('/security/accept-cgu'),
  },
  {
    name: '2: the forced screen itself is allowed',
    given: input({ state: AccountState.MFA_REQUIRED, route: ANONYMOUS_ONLY, to: '/security/mfa' }),
    expected: allow,
  },
  {
    name: "2: the renewal's success page is allowed while the stage is still pending",
    given: input({
      state: AccountState.PASSWORD_EXPIRED,
      route: OPEN,
      to: '/security/password-renewal/success?redirect=%2Fdevices',
    }),
    expected: allow,
  },
  {
    name: "2: no other stage's page is",
    given: input({
      state: AccountState.MFA_REQUIRED,
      route: OPEN,
      to: '/security/password-renewal/success',
    }),
    expected: go('/security/mfa'),
  },
  {
    name: '2: keeps the requested page as redirect',
    given: input({ state: AccountState.MFA_REQUIRED, to: '/profile' }),
    expected: go('/security/mfa?redirect=%2Fprofile'),
  },
  {
    name: '2: keeps target_uri of the login screen',
    given: input({
      state: AccountState.MFA_REQUIRED,
      route: ANONYMOUS_ONLY,
      to: '/security/login?target_uri=%2Foidc%2Fauth',
    }),
    expected: go('/security/mfa?target_uri=%2Foidc%2Fauth'),
  },
  {
    name: '2 before 3: a pending state wins over the login redirect',
    given: input({ state: AccountState.CGU_CONSENT_REQUIRED, user: null, to: '/services' }),
    expected: go('/security/accept-cgu?redirect=%2Fservices'),
  },
  {
    name: '2 before 4: a pending state wins over biometric enrolment',
    given: input({
      state: AccountState.EMAIL_VERIFICATION_REQUIRED,
      user: PATIENT,
      biometricEnrolment: true,
      to: '/',
    }),
    expected: go('/security/verify-email'),
  },
  {
    name: '2 before 7: a pending state wins over the admin rule',
    given: input({ state: AccountState.MFA_REQUIRED, route: ADMIN_ROUTE, to: '/app-settings' }),
    expected: go('/security/mfa?redirect=%2Fapp-settings'),
  },
  {
    name: '2: open routes are forced too',
    given: input({ state: AccountState.MFA_REQUIRED, route: OPEN, to: '/oauth-error' }),
    expected: go('/security/mfa'),
  },

  // Rule 3: a non-anonymous route without a user → login, remembering the page.
  {
    name: '3: signed-in route without a user → login',
    given: input({ to: '/' }),
    expected: go('/security/login'),
  },
  {
    name: '3: keeps the requested page and its query as redirect',
    given: input({ to: '/devices?sort=recent' }),
    expected: go('/security/login?redirect=%2Fdevices%3Fsort%3Drecent'),
  },
  {
    name: '3: UNKNOWN_ERROR without a user → login',
    given: input({ state: AccountState.UNKNOWN_ERROR, to: '/profile' }),
    expected: go('/security/login?redirect=%2Fprofile'),
  },
  {
    name: '3 before 7: an anonymous visitor on an admin route goes to login, not home',
    given: input({ route: ADMIN_ROUTE, to: '/app-settings' }),
    expected: go('/security/login?redirect=%2Fapp-settings'),
  },
  {
    name: '3: anonymous-only routes are open without a user',
    given: input({ route: ANONYMOUS_ONLY, to: '/security/login' }),
    expected: allow,
  },
  {
    name: '3: open routes are open without a user',
    given: input({ route: OPEN, to: '/security/lock-account?email=a%40b.fr&code=123' }),
    expected: allow,
  },

  // Rule 4: biometric enrolment in progress.
  {
    name: '4: a signed-in user enrolling goes to /security/biometrics',
    given: input({
      state: AccountState.LOGGED_IN,
      user: PATIENT,
      biometricEnrolment: true,
      to: '/',
    }),
    expected: go('/security/biometrics'),
  },
  {
    name: '4 before 5: the enrolment screen stays open although anonymous-only',
    given: input({
      state: AccountState.LOGGED_IN,
      user: PATIENT,
      biometricEnrolment: true,
      route: ANONYMOUS_ONLY,
      to: '/security/biometrics',
    }),
    expected: allow,
  },
  {
    name: '4 before 7: enrolment wins over the admin rule',
    given: input({
      state: AccountState.LOGGED_IN,
      user: PATIENT,
      biometricEnrolment: true,
      route: ADMIN_ROUTE,
      to: '/app-settings',
    }),
    expected: go('/security/biometrics'),
  },
  {
    name: '4: enrolment without a user does nothing',
    given: input({ biometricEnrolment: true, route: ANONYMOUS_ONLY, to: '/security/login' }),
    expected: allow,
  },

  // Rule 5: anonymous-only routes send a signed-in user home (or back to `redirect`).
  {
    name: '5: signed-in user on login → /',
    given: input({
      state: AccountState.LOGGED_IN,
      user: PATIENT,
      route: ANONYMOUS_ONLY,
      to: '/security/login',
    }),
    expected: go('/'),
  },
  {
    name: '5: signed-in user on login with redirect → the requested page',
    given: input({
      state: AccountState.LOGGED_IN,
      user: PATIENT,
      route: ANONYMOUS_ONLY,
      to: '/security/login?redirect=%2Fdevices',
    }),
    expected: go('/devices'),
  },
  {
    name: '5: an external redirect is ignored',
    given: input({
      state: AccountState.LOGGED_IN,
      user: PATIENT,
      route: ANONYMOUS_ONLY,
      to: '/security/login?redirect=%2F%2Fevil.example',
    }),
    expected: go('/'),
  },
  {
    name: '5: routes open to both stay open to a signed-in user',
    given: input({
      state: AccountState.LOGGED_IN,
      user: PATIENT,
      route: OPEN,
      to: '/security/account-locked',
    }),
    expected: allow,
  },
  {
    name: '5 before 6: a signed-in user is sent home even with params to carry',
    given: input({
      state: AccountState.LOGGED_IN,
      user: PATIENT,
      route: ANONYMOUS_ONLY,
      from: '/security/login?target_uri=%2Foidc',
      to: '/security/register',
    }),
    expected: go('/'),
  },

  // Rule 6: flow parameters follow the visitor through the security screens.
  {
    name: '6: carries redirect from login to register',
    given: input({
      route: ANONYMOUS_ONLY,
      from: '/security/login?redirect=%2Fdevices',
      to: '/security/register',
    }),
    expected: go('/security/register?redirect=%2Fdevices'),
  },
  {
    name: '6: carries target_uri and keeps the target’s own parameters',
    given: input({
      route: ANONYMOUS_ONLY,
      from: '/security/login?target_uri=%2Foidc%2Fi%2F1&expired=1',
      to: '/security/verify-email?email=a%40b.fr',
    }),
    expected: go('/security/verify-email?email=a%40b.fr&target_uri=%2Foidc%2Fi%2F1'),
  },
  {
    name: '6: carries into the forced screen of a pending state',
    given: input({
      state: AccountState.MFA_REQUIRED,
      route: ANONYMOUS_ONLY,
      from: '/security/login?target_uri=%2Foidc',
      to: '/security/mfa',
    }),
    expected: go('/security/mfa?target_uri=%2Foidc'),
  },
  {
    name: '6: a target that has its own flow parameters is left alone',
    given: input({
      route: ANONYMOUS_ONLY,
      from: '/security/login?redirect=%2Fa',
      to: '/security/register?redirect=%2Fb',
    }),
    expected: allow,
  },
  {
    name: '6: other parameters are not carried',
    given: input({
      route: ANONYMOUS_ONLY,
      from: '/security/login?expired=1',
      to: '/security/register',
    }),
    expected: allow,
  },

  // Rule 7: admin routes.
  {
    name: '7: a non-admin on an admin route → /',
    given: input({
      state: AccountState.LOGGED_IN,
      user: PATIENT,
      route: ADMIN_ROUTE,
      to: '/app-settings',
    }),
    expected: go('/'),
  },
  {
    name: '7: an admin on an admin route is allowed',
    given: input({
      state: AccountState.LOGGED_IN,
      user: ADMIN,
      route: ADMIN_ROUTE,
      to: '/app-settings',
    }),
    expected: allow,
  },
  {
    name: 'a signed-in user on a signed-in route is allowed',
    given: input({ state: AccountState.LOGGED_IN, user: PATIENT, to: '/profile', from: '/?x=1' }),
    expected: allow,
  },
];

describe('navigation guard (spec §4, rules in order)', () => {
  it.each(cases)('$name', ({ given, expected }) => {
    expect(guard(given)).toEqual(expected);
  });
});
