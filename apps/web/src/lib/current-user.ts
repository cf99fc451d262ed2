import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  AccountState,
  accountStateOf,
  currentUserMiniSchema,
  isAdmin,
  type CurrentUser,
} from '@hygie/domain';
import { ApiError, type ApiClient } from './api-client';
import type { AccountStateStore } from './account-state';
import { useServices } from './services';
import { useStore } from './store';

export const ME_QUERY_KEY = ['me'] as const;

/** GET /api/me: the user on LOGGED_IN, else null (the API client has already set the state). */
export function meQueryOptions(api: ApiClient, accountState: AccountStateStore) {
  return queryOptions({
    queryKey: ME_QUERY_KEY,
    queryFn: async ({ signal }): Promise<CurrentUser | null> => {
      try {
        const user = await api.get('/me', currentUserMiniSchema, signal);
        accountState.set({ state: AccountState.LOGGED_IN });
        return user;
      } catch (error) {
        if (!(error instanceof ApiError && accountStateOf(error.code))) {
          accountState.set({ state: AccountState.UNKNOWN_ERROR });
        }
        return null;
      }
    },
    retry: false,
    staleTime: 30_000,
    refetchOnWindowFocus: true,
  });
}

export interface Session {
  /** True until the first answer of GET /api/me. */
  loading: boolean;
  state: AccountState;
  /** The data of the code that set the state, unchecked: read it with `parseErrorData`. */
  stateData: unknown;
  /** The user, only while the account state is LOGGED_IN. */
  user: CurrentUser | null;
  admin: boolean;
}

export function useSession(): Session {
  const { api, accountState } = useServices();
  const me = useQuery(meQueryOptions(api, accountState));
  const { state, data } = useStore(accountState);
  const user = state === AccountState.LOGGED_IN ? (me.data ?? null) : null;
  return { loading: me.isPending, state, stateData: data, user, admin: isAdmin(user) };
}

/** The name to greet the user with: first and last name, else the e-mail. */
export function displayName(user: Pick<CurrentUser, 'firstName' | 'lastName' | 'email'>): string {
  const name = [user.firstName, user.lastName].filter(Boolean).join(' ').trim();
  return name || user.email;
}
