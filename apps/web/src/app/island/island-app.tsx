import {
  createContext,
  StrictMode,
  useContext,
  useMemo,
  type MouseEvent,
  type ReactNode,
} from 'react';
import type { Language } from '@hygie/domain';
import { SecurityFrame } from '../../components/security-frame';
import { BiometricWays, type BiometricWaysProps } from '../../features/auth/biometric-ways';
import { LoginView, type SignInAttempt } from '../../features/auth/login-view';
import { BrandContext, brandStyle } from '../../lib/brand';
import {
  EnvironmentContext,
  type AppLinkProps,
  type ClientEnvironment,
  type Texts,
} from '../../lib/environment';
import type { IslandState } from './state';

/**
 * How the island's page acts: in the browser (start.tsx) it switches languages, signs in and hands
 * the page to the whole client; on the server, which draws the page (server-render.tsx), it does
 * nothing.
 */
export interface IslandActions {
  /** Goes to the page `to` in the whole client. */
  leave(this: void, to: string): void;
  /** Fetches what the page `to` needs, a link to it being pointed at or focused. */
  prefetch(this: void, to: string): void;
  /** Shows the page in another language. */
  changeLanguage(this: void, language: Language): void;
  /** A hook: the password sign-in. */
  useSignIn(this: void): SignInAttempt;
  /** A hook: the biometric ways in, given the username typed so far. */
  useBiometricWays(this: void, getUsername: () => string): BiometricWaysProps;
}

const LinkActionsContext = createContext<Pick<IslandActions, 'leave' | 'prefetch'>>({
  leave: () => {},
  prefetch: () => {},
});

/**
 * A link of the island: a plain left click goes to the page in the whole client; pointed at or
 * focused, what that page needs is fetched.
 */
function IslandLink({ to, onClick, onPointerEnter, onFocus, ...props }: AppLinkProps) {
  const { leave, prefetch } = useContext(LinkActionsContext);
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (
      event.defaultPrevented ||
      event.button !== 0 ||
      event.metaKey ||
      event.ctrlKey ||
      event.shiftKey ||
      event.altKey ||
      props.target
    ) {
      return;
    }
    event.preventDefault();
    leave(to);
  };
  return (
    <a
      href={to}
      onClick={follow}
      onPointerEnter={(event) => {
        onPointerEnter?.(event);
        prefetch(to);
      }}
      onFocus={(event) => {
        onFocus?.(event);
        prefetch(to);
      }}
      {...props}
    />
  );
}

function IslandBiometricWays({
  actions,
  getUsername,
}: {
  actions: IslandActions;
  getUsername: () => string;
}) {
  return <BiometricWays {...actions.useBiometricWays(getUsername)} />;
}

function IslandLogin({ actions }: { actions: IslandActions }) {
  const signIn = actions.useSignIn();
  return (
    <LoginView
      signIn={signIn}
      biometric={(getUsername) => (
        <IslandBiometricWays actions={actions} getUsername={getUsername} />
      )}
    />
  );
}

/**
 * The login page as its island (docs/web.md): what the server draws for a visitor without a
 * session and what the browser hydrates first, with React alone — texts from the page's
 * translations (texts.ts), links and parameters from the address, the configuration from the
 * page's state — so that neither React Router, i18next, TanStack Query nor zod is on the first
 * load. The same views as the whole client's route (login-view.tsx, security-frame.tsx).
 */
export function IslandApp({
  state,
  texts,
  search,
  actions,
}: {
  state: IslandState;
  texts: Texts;
  /** The page address's query string. */
  search: string;
  actions: IslandActions;
}): ReactNode {
  const environment = useMemo((): ClientEnvironment => {
    const params = new URLSearchParams(search);
    return {
      texts,
      changeLanguage: actions.changeLanguage,
      Link: IslandLink,
      useSearchParams: () => params,
      usePublicConfig: () => state.config,
    };
  }, [texts, search, actions, state.config]);
  const linkActions = useMemo(
    () => ({ leave: actions.leave, prefetch: actions.prefetch }),
    [actions.leave, actions.prefetch],
  );
  return (
    <StrictMode>
      <EnvironmentContext value={environment}>
        <LinkActionsContext value={linkActions}>
          <BrandContext value={state.brand}>
            <div
              className="hy-root"
              style={brandStyle(state.brand)}
              data-brand={state.brand}
              data-testid="app-root"
            >
              <SecurityFrame>
                <IslandLogin actions={actions} />
              </SecurityFrame>
            </div>
          </BrandContext>
        </LinkActionsContext>
      </EnvironmentContext>
    </StrictMode>
  );
}
