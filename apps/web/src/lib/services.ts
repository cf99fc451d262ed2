import { createContext, useContext } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import type { Brand, PublicConfig, RequiredLevel } from '@hygie/domain';
import type { ApiClient } from './api-client';
import type { AccountStateStore } from './account-state';
import type { Notifications } from './notifications';
import type { Store } from './store';

/** Everything the UI needs that is not React state, created once by app/ (and by tests). */
export interface AppServices {
  api: ApiClient;
  queryClient: QueryClient;
  accountState: AccountStateStore;
  notifications: Notifications;
  brand: Brand;
  /** True while a biometric enrolment is in progress (spec §4, guard rule 4). */
  biometricEnrolment: Store<boolean>;
  /**
   * The level the account area asked for (`403 assurance_level_required`), until the step-up
   * screen shows: the guard sends the user there.
   */
  assuranceRequired: Store<RequiredLevel | null>;
  /** GET /api/config once loaded. */
  config: Store<PublicConfig | null>;
}

export const ServicesContext = createContext<AppServices | null>(null);

export function useServices(): AppServices {
  const services = useContext(ServicesContext);
  if (!services) throw new Error('useServices must be used inside <ServicesContext>');
  return services;
}
