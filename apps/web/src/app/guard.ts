import {
  AccountState,
  isAdmin,
  safeInternalPath,
  type CurrentUser,
  type RequiredLevel,
} from '@hygie/domain';
import { CARRIED_QUERY_PARAMS, flowParams as flowParamsOf } from '../lib/flow-params';

export { CARRIED_QUERY_PARAMS };

/** Marks a route can carry (spec §2). `anonymousOnly` implies `anonymous`. */
export interface RouteMeta {
  /** Open without a user. */
  anonymous?: boolean;
  /** Only for visitors without a user: a signed-in user is sent home. */
  anonymousOnly?: boolean;
  /**
   * An anonymous-only screen a signed-in user may open too when it names what to read
   * (`?version=`: a terms version, the one in force or the one they accepted). Without it, the
   * screen is anonymous-only like the others (a sign-in completed there goes on home).
   */
  readableSignedIn?: boolean;
  /** Only for admins. */
  admin?: boolean;
  /**
   * Open to everyone in every state (the legal pages): a half-open sign-in or a biometric
   * enrolment does not take the visitor away from them.
   */
  alwaysOpen?: boolean;
}

export interface GuardLocation {
  pathname: string;
  /** `?a=b` or ''. */
  search: string;
}

export interface GuardInput {
  /** The first GET /api/me has not answered yet. */
  loading: boolean;
  state: AccountState;
  /** The signed-in user, null unless the account state is LOGGED_IN. */
  user: Pick<CurrentUser, 'roles'> | null;
  /** The marks of the route being entered. */
  route: RouteMeta;
  biometricEnrolment: boolean;
  /**
   * The level the account area answered it needs (`403 assurance_level_required`), until the
   * step-up screen is shown.
   */
  assuranceRequired?: RequiredLevel | null;
  /** The last location shown, null on the first navigation. */
  from: GuardLocation | null;
  to: GuardLocation;
}

export type GuardDecision =
  { action: 'wait' } | { action: 'allow' } | { action: 'redirect'; to: string };

export const HOME_PATH = '/';
export const LOGIN_PATH = '/security/login';
export const BIOMETRICS_PATH = '/security/biometrics';
export const STEP_UP_PATH = '/security/step-up';

/** The screen each pending state forces (spec §4 rule 2). */
export const PENDING_STATE_SCREENS: Partial<Record<AccountState, string>> = {
  [AccountState.MFA_REQUIRED]: '/security/mfa',
  [AccountState.PASSWORD_EXPIRED]: '/security/password-renewal',
  [AccountState.PASSWORD_CREATION_REQUIRED]: '/security/password-renewal',
  [AccountState.EMAIL_VERIFICATION_REQUIRED]: '/security/verify-email',
  [AccountState.MOBILE_PHONE_VERIFICATION_REQUIRED]: '/security/verify-mobile-phone',
  [AccountState.CGU_CONSENT_REQUIRED]: '/security/accept-cgu',
};

/**
 * The success page of a stage, shown once the stage is answered and before the sign-in moves on:
 * the state is still the stage's until the page moves on (it then completes the sign-in).
 */
export const STAGE_SUCCESS_SCREENS: Partial<Record<AccountState, string>> = {
  [AccountState.PASSWORD_EXPIRED]: '/security/password-renewal/success',
  [AccountState.PASSWORD_CREATION_REQUIRED]: '/security/password-renewal/success',
};

const WAIT: GuardDecision = { action: 'wait' };
const ALLOW: GuardDecision = { action: 'allow' };
const redirect = (to: string): GuardDecision => ({ action: 'redirect', to });

function withParams(pathname: string, params: URLSearchParams): string {
  const search = params.toString();
  return search ? `${pathname}?${search}` : pathname;
}

function flowParams(location: GuardLocation): URLSearchParams {
  return flowParamsOf(location.search);
}

/** `redirect=<requested page>` so the visitor comes back to it, unless it is the home page. */
function requestedPage(location: GuardLocation): URLSearchParams {
  const params = new URLSearchParams();
  if (location.pathname !== HOME_PATH || location.search) {
    params.set('redirect', location.pathname + location.search);
  }
  return params;
}

/**
 * The navigation guard (spec §4), a pure function of the session and the navigation. The rules
 * are applied in this order; the first that decides wins.
 */
export function guard(input: GuardInput): GuardDecision {
  const { loading, state, user, route, biometricEnrolment, assuranceRequired, from, to } = input;
  const anonymous = !!(route.anonymous || route.anonymousOnly);

  // 1. Wait while loading.
  if (loading) return WAIT;

  // 1b. The legal pages (legal notice, personal-data policy, accessibility, contact) are open to
  // everyone, whatever the state of their sign-in: every page links to them.
  if (route.alwaysOpen) return ALLOW;

  // 2. A pending state forces its screen (or the stage's success page), keeping where the
  //    visitor was heading.
  const forced = PENDING_STATE_SCREENS[state];
  if (forced && to.pathname !== forced && to.pathname !== STAGE_SUCCESS_SCREENS[state]) {
    const params = flowParams(to);
    return redirect(
      withParams(forced, [...params].length || anonymous ? params : requestedPage(to)),
    );
  }

  // 3. A non-anonymous route without a user goes to login, remembering the requested page.
  if (!anonymous && !user) return redirect(withParams(LOGIN_PATH, requestedPage(to)));

  // 3b. The account area needs a higher level than the session's: the step-up screen, then back
  //     to the page the user was on.
  if (user && assuranceRequired && to.pathname !== STEP_UP_PATH) {
    const params = new URLSearchParams({
      level: assuranceRequired,
      target_uri: to.pathname + to.search,
    });
    return redirect(withParams(STEP_UP_PATH, params));
  }

  // 4. During a biometric enrolment, a signed-in user goes to the enrolment screen.
  const enrolling = !!user && biometricEnrolment;
  if (enrolling && to.pathname !== BIOMETRICS_PATH) {
    return redirect(withParams(BIOMETRICS_PATH, flowParams(to)));
  }

  // 5. An anonymous-only route for a signed-in user goes home, or back to the requested page
  //    (but for a screen a signed-in user may read, asked with what to read).
  const reading = !!route.readableSignedIn && new URLSearchParams(to.search).has('version');
  if (route.anonymousOnly && user && !enrolling && !reading) {
    const back = safeInternalPath(new URLSearchParams(to.search).get('redirect'));
    return redirect(back && back.split('?')[0] !== to.pathname ? back : HOME_PATH);
  }

  // 6. Flow parameters of the previous screen follow the visitor through the security screens.
  if (route.anonymousOnly && from) {
    const carried = flowParams(from);
    const target = new URLSearchParams(to.search);
    const missing = CARRIED_QUERY_PARAMS.every((name) => !target.has(name));
    if (missing && [...carried].length) {
      for (const [name, value] of carried) target.set(name, value);
      return redirect(withParams(to.pathname, target));
    }
  }

  // 7. Admin routes send non-admins home.
  if (route.admin && !isAdmin(user)) return redirect(HOME_PATH);

  return ALLOW;
}
