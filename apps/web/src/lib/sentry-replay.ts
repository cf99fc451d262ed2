import { replayIntegration } from '@sentry/react';

/** Loaded lazily by error-reporting.ts. Health data: every text and medium is masked. */
export function createReplayIntegration() {
  return replayIntegration({ maskAllText: true, maskAllInputs: true, blockAllMedia: true });
}
