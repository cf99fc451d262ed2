import { MutationCache, QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client';
import type { Notifications } from './notifications';

/**
 * The app's query client. Every action (a mutation) that starts or fails hides the success
 * notifications still on screen: "Saved" must not stand beside the error of the next action.
 */
export function createQueryClient(
  notifications?: Pick<Notifications, 'dismissSuccess'>,
): QueryClient {
  const clearSuccess = () => notifications?.dismissSuccess();
  return new QueryClient({
    mutationCache: new MutationCache({ onMutate: clearSuccess, onError: clearSuccess }),
    defaultOptions: {
      queries: {
        // A 4xx will not change by asking again; network errors and 5xx get one more try.
        retry: (failureCount, error) =>
          failureCount < 1 &&
          !(error instanceof ApiError && error.status >= 400 && error.status < 500),
        refetchOnWindowFocus: false,
      },
      mutations: { retry: false },
    },
  });
}
