import type * as SentrySdk from '@sentry/react';
import { RELEASE, SENTRY_SAMPLE_RATES, type PublicConfig } from '@hygie/domain';

type SentryModule = typeof SentrySdk;

export interface ErrorReportingDeps {
  loadSentry?: () => Promise<SentryModule>;
  loadReplay?: () => Promise<{
    createReplayIntegration: () => ReturnType<SentryModule['replayIntegration']>;
  }>;
  /** Resolves once the page has painted and the browser is idle (see `afterFirstPaint`). */
  whenIdle?: () => Promise<void>;
}

let started = false;

/** Errors thrown before the SDK is there: kept, then sent once it is (at most this many). */
const EARLY_ERRORS_MAX = 20;
const earlyErrors: unknown[] = [];
let stopQueueing: (() => void) | null = null;

/**
 * Keeps the page's uncaught errors and unhandled rejections from the start (main.tsx calls it
 * first thing), so that those raised before Sentry is loaded are still reported.
 */
export function queueEarlyErrors(target: Window = window): void {
  if (stopQueueing) return;
  const keep = (error: unknown) => {
    if (earlyErrors.length < EARLY_ERRORS_MAX) earlyErrors.push(error);
  };
  const onError = (event: ErrorEvent) => keep(event.error ?? event.message);
  const onRejection = (event: PromiseRejectionEvent) => keep(event.reason);
  target.addEventListener('error', onError);
  target.addEventListener('unhandledrejection', onRejection);
  stopQueueing = () => {
    target.removeEventListener('error', onError);
    target.removeEventListener('unhandledrejection', onRejection);
    stopQueueing = null;
  };
}

/** Stops keeping errors and hands over those kept. */
function takeEarlyErrors(): unknown[] {
  stopQueueing?.();
  return earlyErrors.splice(0);
}

/** After the load event, when the browser is idle (at most 3 s later): the page has painted. */
export function afterFirstPaint(): Promise<void> {
  return new Promise((resolve) => {
    const whenIdle = () => {
      if (typeof window.requestIdleCallback === 'function') {
        window.requestIdleCallback(() => resolve(), { timeout: 3000 });
      } else {
        setTimeout(resolve, 0);
      }
    };
    if (document.readyState === 'complete') whenIdle();
    else window.addEventListener('load', whenIdle, { once: true });
  });
}

/**
 * Starts Sentry when the server configures a DSN. The SDK is loaded after the first paint, once
 * the browser is idle, and the session replay after it, so neither sits on the login page's
 * critical path (architecture §10); the errors raised meanwhile (`queueEarlyErrors`) are sent then.
 */
export async function initErrorReporting(
  config: Pick<PublicConfig, 'sentryDsn' | 'sentryEnvironment'>,
  deps: ErrorReportingDeps = {},
): Promise<boolean> {
  if (!config.sentryDsn) {
    // Nobody to send them to.
    takeEarlyErrors();
    return false;
  }
  if (started) return false;
  started = true;
  await (deps.whenIdle ?? afterFirstPaint)();
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
  // Sentry now catches what is thrown; what was thrown before goes after it.
  for (const error of takeEarlyErrors()) Sentry.captureException(error);
  const replay = await (deps.loadReplay ?? (() => import('./sentry-replay')))();
  Sentry.addIntegration(replay.createReplayIntegration());
  return true;
}

/** Test helper. */
export function resetErrorReporting(): void {
  started = false;
  takeEarlyErrors();
}
