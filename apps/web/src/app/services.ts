import type { Brand, Language, PublicConfig, RequiredLevel } from '@hygie/domain';
import { createAccountStateStore } from '../lib/account-state';
import { createApiClient } from '../lib/api-client';
import { createNotifications } from '../lib/notifications';
import { createQueryClient } from '../lib/query-client';
import type { AppServices } from '../lib/services';
import { readStorage, writeStorage } from '../lib/storage';
import { createStore } from '../lib/store';

const BIOMETRIC_ENROLMENT_KEY = 'biometricEnrolment';

export interface CreateServicesOptions {
  brand: Brand;
  /** The current interface language, sent as `?l=` on every call. */
  getLanguage: () => Language;
  fetch?: typeof fetch;
}

/** The composition root of the client's non-React state. */
export function createAppServices({
  brand,
  getLanguage,
  fetch,
}: CreateServicesOptions): AppServices {
  const accountState = createAccountStateStore();
  const assuranceRequired = createStore<RequiredLevel | null>(null);
  const api = createApiClient({
    getLanguage,
    getBrand: () => brand,
    onAccountState: (state, data) => accountState.set({ state, data }),
    onAssuranceRequired: (level) => assuranceRequired.set(level),
    ...(fetch && { fetch }),
  });
  const biometricEnrolment = createStore(
    readStorage('sessionStorage', BIOMETRIC_ENROLMENT_KEY) === '1',
  );
  // Enrolment survives a reload of the page but not the end of the browser session.
  biometricEnrolment.subscribe(() =>
    writeStorage('sessionStorage', BIOMETRIC_ENROLMENT_KEY, biometricEnrolment.get() ? '1' : null),
  );
  const notifications = createNotifications();
  return {
    api,
    queryClient: createQueryClient(notifications),
    accountState,
    notifications,
    brand,
    biometricEnrolment,
    assuranceRequired,
    config: createStore<PublicConfig | null>(null),
  };
}
