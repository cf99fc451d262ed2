import { AccountState } from '@hygie/domain';
import { createStore, type Store } from './store';

/** Where the visitor stands in the sign-in state machine, with the data of the code that set it. */
export interface AccountStateValue {
  state: AccountState;
  /** The `data` of the error response that moved the state (e.g. the MFA hints), unchecked: read it
   * with `parseErrorData` of that state's code. */
  data?: unknown;
}

export type AccountStateStore = Store<AccountStateValue>;

export function createAccountStateStore(
  initial: AccountState = AccountState.NOT_LOGGED_IN,
): AccountStateStore {
  return createStore<AccountStateValue>({ state: initial });
}
