import { afterEach, describe, expect, it, vi } from 'vitest';
import { RELEASE, SENTRY_SAMPLE_RATES } from '@hygie/domain';
import {
  initErrorReporting,
  resetErrorReporting,
  type ErrorReportingDeps,
} from './error-reporting';

function fakeSentry() {
  const sdk = {
    init: vi.fn(),
    addIntegration: vi.fn(),
    browserTracingIntegration: vi.fn(() => ({ name: 'BrowserTracing' })),
  };
  const replay = { name: 'Replay' };
  // ErrorReportingDeps takes the whole @sentry/react module type (hundreds of exports) and the
  // replay integration's class; the double implements what initErrorReporting calls.
  // eslint-disable-next-line @typescript-eslint/consistent-type-assertions -- @sentry/react module and Replay types cannot be built by a test double
  const deps = {
    loadSentry: vi.fn(() => Promise.resolve(sdk)),
    loadReplay: vi.fn(() => Promise.resolve({ createReplayIntegration: () => replay })),
  } as unknown as Required<ErrorReportingDeps>;
  return { sdk, replay, deps };
}

describe('error reporting', () => {
  afterEach(() => resetErrorReporting());

  it('stays off, without loading the SDK, when no DSN is configured', async () => {
    const { deps } = fakeSentry();
    await expect(
      initErrorReporting({ sentryDsn: null, sentryEnvironment: 'prod' }, deps),
    ).resolves.toBe(false);
    expect(deps.loadSentry).not.toHaveBeenCalled();
  });

  it('starts with the release and the sample rates, then adds the lazily loaded replay', async () => {
    const { sdk, replay, deps } = fakeSentry();
    const config = { sentryDsn: 'https://key@sentry.example/1', sentryEnvironment: 'production' };
    await expect(initErrorReporting(config, deps)).resolves.toBe(true);
    expect(sdk.init).toHaveBeenCalledWith(
      expect.objectContaining({
        dsn: config.sentryDsn,
        release: RELEASE,
        environment: 'production',
        tracesSampleRate: SENTRY_SAMPLE_RATES.tracesSampleRate,
        replaysSessionSampleRate: SENTRY_SAMPLE_RATES.replaysSessionSampleRate,
        replaysOnErrorSampleRate: SENTRY_SAMPLE_RATES.replaysOnErrorSampleRate,
      }),
    );
    expect(RELEASE).toBe('1.4.2');
    expect(deps.loadReplay).toHaveBeenCalledTimes(1);
    expect(sdk.addIntegration).toHaveBeenCalledWith(replay);
  });

  it('starts only once', async () => {
    const { sdk, deps } = fakeSentry();
    const config = { sentryDsn: 'https://key@sentry.example/1', sentryEnvironment: 'production' };
    await initErrorReporting(config, deps);
    await initErrorReporting(config, deps);
    expect(sdk.init).toHaveBeenCalledTimes(1);
  });
});
