import type * as SentrySdk from '@sentry/react';
import { RELEASE, SENTRY_SAMPLE_RATES, type PublicConfig } from '@hygie/domain';

type SentryModule = typeof SentrySdk;

export interface ErrorReportingDeps {
  loadSentry?: () => Promise<SentryModule>;
  loadReplay?: () => Promise<{
    createReplayIntegration: () => ReturnType<SentryModule['replayIntegration']>;
  }>;
}

let started = false;

/**
 * Starts Sentry when the server configures a DSN. The SDK is loaded on demand and the session
 * replay after it, so neither sits on the login page's critical path (architecture §10).
 */
export async function initErrorReporting(
  config: Pick<PublicConfig, 'sentryDsn' | 'sentryEnvironment'>,
  deps: ErrorReportingDeps = {},
): Promise<boolean> {
  if (!config.sentryDsn || started) return false;
  started = true;
  const Sentry = await (deps.loadSentry ?? (() => import('@sentry/react')))();
  Sentry.init({
    dsn: config.sentryDsn,
    release: RELEASE,
    environment: config.sentryEnvironment,
    integrations: [Sentry.browserTracingIntegration()],
    tracesSampleRate: SENTRY_SAMPLE_RATES.tracesSampleRate,
    replaysSessionSampleRate: SENTRY_SAMPLE_RATES.replaysSessionSampleRate,
    replaysOnErrorSampleRate: SENTRY_SAMPLE_RATES.replaysOnErrorSampleRate,
  });
  const replay = await (deps.loadReplay ?? (() => import('./sentry-replay')))();
  Sentry.addIntegration(replay.createReplayIntegration());
  return true;
}

/** Test helper. */
export function resetErrorReporting(): void {
  started = false;
}
