import { useCallback } from 'react';
import { useMutation } from '@tanstack/react-query';
import { AccountState, okSchema, type DeleteAccountInput } from '@hygie/domain';
import { ME_QUERY_KEY } from '../../lib/current-user';
import { useServices } from '../../lib/services';

/** Where the person downloads their data (GET /api/me/export: a JSON attachment). */
export const MY_DATA_EXPORT_URL = '/api/me/export';

/** The page shown once the account is deleted (open to all: the person is signed out). */
export const GOODBYE_PATH = '/security/goodbye';

/** The navigation state telling the goodbye page that the account was just deleted. */
export const DELETED = { accountDeleted: true } as const;

/** Whether a location's state says the account was just deleted. */
export function isDeletedState(state: unknown): boolean {
  return typeof state === 'object' && state !== null && 'accountDeleted' in state;
}

/** DELETE /api/me: the account erased; the server ended the session and cleared its cookie. */
export function useDeleteAccount() {
  const { api } = useServices();
  return useMutation({
    mutationFn: (input: DeleteAccountInput) =>
      api.request('DELETE', '/me', { body: input, schema: okSchema }),
  });
}

/** The app forgets the deleted user: signed out, nothing of theirs kept in the cache. */
export function useForgetUser(): () => void {
  const { queryClient, accountState } = useServices();
  return useCallback(() => {
    queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== ME_QUERY_KEY[0] });
    queryClient.setQueryData(ME_QUERY_KEY, null);
    accountState.set({ state: AccountState.NOT_LOGGED_IN });
  }, [queryClient, accountState]);
}
