import { useMemo, useState } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import type { Brand, CurrentUser, Language } from '@hygie/domain';
import { nativeBiometricsSupported, passkeysSupported } from '../../lib/biometric-support';
import type { BiometricWaysProps } from '../../features/auth/biometric-ways';
import type { SignInAttempt } from '../../features/auth/login-view';
import type { LoginForm } from '../../features/auth/login-form';
import { resolveBrandFromWindow } from '../../lib/brand';
import { browser } from '../../lib/browser';
import { useTexts, type Texts } from '../../lib/environment';
import { queueEarlyErrors } from '../../lib/error-reporting';
import { useBrowserValue } from '../../lib/hydration';
import { applyDocumentLanguage, detectLanguageFromWindow } from '../../lib/language';
import type { BootOptions, Handover } from '../boot';
import { IslandApp, type IslandActions } from './island-app';
import { readIslandState, type IslandState } from './state';
import { createTexts, loadFirstTranslations } from './texts';

/** What a sign-in of the island came to (actions.ts). */
export type IslandOutcome =
  { user: CurrentUser } | { nextStep: true } | { failure: string | null; cancelled?: boolean };

/** The page started: hydrated as the island or drawn by the whole client; and its end. */
export interface StartedIsland {
  hydrated: boolean;
  /** Unmounts whichever client has the page (tests). */
  unmount(this: void): void;
}

/** Hands the page to the whole client. */
type HandOver = (options: Omit<Handover, 'unmount' | 'language'>) => Promise<void>;

/** The whole client: its start, and the island's sign-in actions, in its first chunk. */
const loadClient = () => Promise.all([import('../boot'), import('./actions')]);

/** The page's first interactions, which fetch the whole client before it is needed. */
const INTERACTIONS = ['pointerover', 'pointerdown', 'touchstart', 'keydown', 'focusin'] as const;

async function textsIn(language: Language): Promise<Texts> {
  return createTexts(language, await loadFirstTranslations(language));
}

/**
 * Starts the login page the server drew (main.tsx): hydrates it as its island with React alone,
 * when this browser would have drawn the same (same language, same brand, not inside the mobile
 * app, whose biometric sign-in is the whole client's); else starts the whole client. The whole
 * client is fetched at the page's first interaction and takes the page over when the visitor
 * leaves it: a link, or a sign-in that went through (docs/web.md). Another language is switched
 * to on the island itself, which keeps what was typed.
 */
export async function startIsland(
  container: HTMLElement,
  { onRecoverableError }: Pick<BootOptions, 'onRecoverableError'> = {},
): Promise<StartedIsland> {
  // Kept for Sentry, which the whole client starts once it has the page (boot.tsx calls it too).
  queueEarlyErrors();
  const rootOptions = onRecoverableError ? { onRecoverableError } : {};
  const state = readIslandState(document);
  const language = detectLanguageFromWindow();
  const brand = resolveBrandFromWindow();
  if (
    !state ||
    state.language !== language ||
    state.brand !== brand ||
    nativeBiometricsSupported()
  ) {
    const { boot } = await import('../boot');
    const { root } = await boot(container, rootOptions);
    return { hydrated: false, unmount: () => root.unmount() };
  }
  const texts = await textsIn(language);
  const prefetch = () => {
    for (const type of INTERACTIONS) document.removeEventListener(type, prefetch, true);
    // A failure shows when the client is needed: the sign-in says the network failed.
    loadClient()
      .then(([, actions]) => actions.startErrorReporting())
      .catch(() => {});
  };
  for (const type of INTERACTIONS) {
    document.addEventListener(type, prefetch, { capture: true, passive: true });
  }

  let root: Root | null = null;
  let leaving = false;
  let current = language;
  /** Hands the page to the whole client (boot.tsx), once, in the island's current language. */
  const handOver: HandOver = async (options) => {
    if (leaving || !root) return;
    leaving = true;
    const island = root;
    try {
      const [{ boot }] = await loadClient();
      const started = await boot(container, {
        ...rootOptions,
        handover: { ...options, language: current, unmount: () => island.unmount() },
      });
      root = started.root;
    } catch (error) {
      leaving = false;
      throw error;
    }
  };
  const switchLanguage = async (next: Language): Promise<Texts> => {
    const switched = await textsIn(next);
    current = next;
    applyDocumentLanguage(next);
    return switched;
  };
  root = hydrateRoot(
    container,
    <LiveIsland
      state={state}
      texts={texts}
      brand={brand}
      handOver={handOver}
      switchLanguage={switchLanguage}
    />,
    rootOptions,
  );
  return { hydrated: true, unmount: () => root?.unmount() };
}

/** The island in the browser: its texts follow the language chosen, its actions sign in. */
function LiveIsland({
  state,
  texts: firstTexts,
  brand,
  handOver,
  switchLanguage,
}: {
  state: IslandState;
  texts: Texts;
  brand: Brand;
  handOver: HandOver;
  switchLanguage: (language: Language) => Promise<Texts>;
}) {
  const [texts, setTexts] = useState(firstTexts);
  const actions = useMemo(
    (): IslandActions => ({
      // Without the whole client (the network, a new deployment), the browser opens the page.
      leave: (to) => void handOver({ session: 'anonymous', to }).catch(() => browser.assign(to)),
      // A failure shows, if at all, when the page is opened.
      prefetch: (to) =>
        void loadClient()
          .then(([{ prefetchRoute }]) => prefetchRoute(to))
          .catch(() => {}),
      // Without the other language's translations, the page stays in its language.
      changeLanguage: (language) => void switchLanguage(language).then(setTexts, () => {}),
      useSignIn: () => useIslandSignIn(brand, handOver),
      useBiometricWays: (getUsername) => useIslandPasskey(brand, getUsername, handOver),
    }),
    [brand, handOver, switchLanguage],
  );
  return (
    <IslandApp state={state} texts={texts} search={window.location.search} actions={actions} />
  );
}

/** After a sign-in: the whole client goes on with the user, or asks for the next step. */
function settle(outcome: IslandOutcome, handOver: HandOver): string | null {
  // The whole client is there (the sign-in came from it); should its start fail, the page is
  // loaded again, which the session now opens.
  if ('user' in outcome) {
    void handOver({ session: outcome.user }).catch(() => browser.reload());
    return null;
  }
  if ('nextStep' in outcome) {
    void handOver({ session: 'unknown' }).catch(() => browser.reload());
    return null;
  }
  return outcome.failure;
}

/** Whether a sign-in's outcome hands the page over (it stays pending meanwhile). */
function movesOn(outcome: IslandOutcome): boolean {
  return 'user' in outcome || 'nextStep' in outcome;
}

function useIslandSignIn(brand: Brand, handOver: HandOver): SignInAttempt {
  const texts = useTexts();
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  return {
    pending,
    failure,
    submit: (values: LoginForm) => {
      setPending(true);
      void loadClient()
        .then(([, actions]) => actions.signIn(values, { brand, texts }))
        .then(
          (outcome) => {
            setFailure(settle(outcome, handOver));
            setPending(movesOn(outcome));
          },
          () => {
            // The whole client could not be fetched: the network's fault.
            setFailure(texts.t('errors:network'));
            setPending(false);
          },
        );
    },
  };
}

function useIslandPasskey(
  brand: Brand,
  getUsername: () => string,
  handOver: HandOver,
): BiometricWaysProps {
  const texts = useTexts();
  const passkeys = useBrowserValue(() => passkeysSupported(), false);
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [cancelled, setCancelled] = useState(false);
  return {
    passkeys,
    offerNative: false,
    failure,
    cancelledPasskey: cancelled,
    passkeyPending: pending,
    nativePending: false,
    onPasskey: () => {
      setPending(true);
      setFailure(null);
      setCancelled(false);
      void loadClient()
        .then(([, actions]) =>
          actions.signInWithPasskey(getUsername().trim() || undefined, { brand, texts }),
        )
        .then(
          (outcome) => {
            setFailure(settle(outcome, handOver));
            setCancelled('cancelled' in outcome && outcome.cancelled === true);
            setPending(movesOn(outcome));
          },
          () => {
            setFailure(texts.t('errors:network'));
            setPending(false);
          },
        );
    },
    onNative: () => {},
  };
}
