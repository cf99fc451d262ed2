import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import {
  AccountState,
  accountStateOf,
  PENDING_STATES,
  safeTargetUri,
  type CurrentUser,
} from '@hygie/domain';
import { ApiError } from './api-client';
import { shouldOfferBiometricEnrolment } from './biometrics';
import { browser } from './browser';
import { ME_QUERY_KEY } from './current-user';
import type { AppServices } from './services';
import { useServices } from './services';

/**
 * True when a failed call only means "go to the next sign-in step": the API client has already
 * moved the account state and the guard shows the step's screen, so there is nothing to show.
 */
export function isPendingStage(error: unknown): boolean {
  const state = error instanceof ApiError ? accountStateOf(error.code) : undefined;
  return !!state && PENDING_STATES.includes(state);
}

/**
 * Sign-in is complete (login, or the last stage answered the user): follow a same-origin
 * `target_uri` with a full navigation (e.g. back to an OIDC interaction), else become LOGGED_IN
 * with the user as the `me` data and let the guard send the user on (to `redirect` or home).
 * Inside the newer app, a device without a biometric key (and whose user has not declined)
 * first goes through the enrolment question: the guard shows it, keeping `target_uri`.
 */
export function completeSignIn(
  services: Pick<AppServices, 'queryClient' | 'accountState' | 'biometricEnrolment'>,
  user: CurrentUser,
  targetUri: string | null,
): void {
  const enrol = shouldOfferBiometricEnrolment();
  if (enrol) services.biometricEnrolment.set(true);
  const target = enrol ? null : safeTargetUri(targetUri, window.location.origin);
  if (target) {
    browser.assign(target);
    return;
  }
  services.queryClient.setQueryData(ME_QUERY_KEY, user);
  services.accountState.set({ state: AccountState.LOGGED_IN });
}

/** completeSignIn with the `target_uri` of the current page. */
export function useCompleteSignIn(): (user: CurrentUser) => void {
  const services = useServices();
  const [params] = useSearchParams();
  const targetUri = params.get('target_uri');
  return useCallback((user) => completeSignIn(services, user, targetUri), [services, targetUri]);
}

/**
 * Forgets the client's session (the server has already ended it, e.g. after locking the
 * account): the user and every cached answer but the public configuration, and NOT_LOGGED_IN.
 */
export function resetClientSession(
  services: Pick<AppServices, 'queryClient' | 'accountState'>,
): void {
  const { queryClient, accountState } = services;
  queryClient.removeQueries({
    predicate: (query) => !['config', 'me'].includes(String(query.queryKey[0])),
  });
  queryClient.setQueryData(ME_QUERY_KEY, null);
  accountState.set({ state: AccountState.NOT_LOGGED_IN });
}
