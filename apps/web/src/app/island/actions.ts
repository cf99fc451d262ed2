import { asLanguage, currentUserMiniSchema, DEFAULT_LANGUAGE, type Brand } from '@hygie/domain';
import { createApiClient } from '../../lib/api-client';
import { biometricErrorMessage } from '../../lib/biometric-messages';
import { isPasskeyCancelled, signInWithPasskey as passkeySignIn } from '../../lib/biometrics';
import type { Texts } from '../../lib/environment';
import { errorMessage } from '../../lib/error-message';
import { initErrorReporting } from '../../lib/error-reporting';
import { isPendingStage } from '../../lib/sign-in';
import type { LoginForm } from '../../features/auth/login-form';
import { readPageState } from '../page-state';
import type { IslandOutcome } from './start';

/** The island's page: its brand, and its texts in the current language. */
export interface IslandPage {
  brand: Brand;
  texts: Texts;
}

/**
 * The island's sign-ins (start.tsx), with the whole client's API client and messages: loaded with
 * the whole client, at the page's first interaction. The page's state, read with its schema
 * here, gives the anti-forgery cookie's name and the contact address.
 */
function client({ brand, texts }: IslandPage) {
  const config = readPageState(document)?.config;
  const api = createApiClient({
    getLanguage: () => asLanguage(texts.language) ?? DEFAULT_LANGUAGE,
    getBrand: () => brand,
    // The whole client asks the server for the account state when it takes over.
    onAccountState: () => {},
    onAssuranceRequired: () => {},
  });
  if (config) api.setXsrfCookieName(config.xsrfCookieName);
  return { api, contactEmail: config?.contactEmail ?? '' };
}

/** POST /api/login, as the whole client's login page does (features/auth/api/login.ts). */
export async function signIn(values: LoginForm, page: IslandPage): Promise<IslandOutcome> {
  const { api, contactEmail } = client(page);
  try {
    return { user: await api.post('/login', values, currentUserMiniSchema) };
  } catch (error) {
    if (isPendingStage(error)) return { nextStep: true };
    return { failure: errorMessage(page.texts, error, { contactEmail }) };
  }
}

/** A passkey sign-in, as the whole client's (features/auth/api/biometric-login.ts). */
export async function signInWithPasskey(
  username: string | undefined,
  page: IslandPage,
): Promise<IslandOutcome> {
  const { api } = client(page);
  try {
    return { user: await passkeySignIn(api, username) };
  } catch (error) {
    if (isPendingStage(error)) return { nextStep: true };
    return {
      failure: biometricErrorMessage(page.texts, error),
      cancelled: isPasskeyCancelled(error),
    };
  }
}

/**
 * Starts error reporting with the page's configuration, as the whole client does once it has the
 * page (app.tsx): what failed on the island so far (queued since it started) is sent then. Once
 * per page, whoever asks first.
 */
export function startErrorReporting(
  start: typeof initErrorReporting = initErrorReporting,
): Promise<boolean> {
  const config = readPageState(document)?.config;
  return config ? start(config) : Promise.resolve(false);
}
