import { afterEach, describe, expect, it, vi } from 'vitest';
import { RELEASE, SENTRY_SAMPLE_RATES } from '@hygie/domain';
import {
  initErrorReporting,
  queueEarlyErrors,
  resetErrorReporting,
  type ErrorReportingDeps,
} from './error-reporting';

function fakeSentry() {
  const sdk = {
    init: vi.fn(),
    addIntegration: vi.fn(),
    captureException: vi.fn(),
    browserTracingIntegration: vi.fn(() => ({ name: 'BrowserTracing' })),
  };
  const replay = { name: 'Replay' };
  // ErrorReportingDeps takes the whole @sentry/react module type (hundreds of exports) and the
  // replay integration's class; the double implements what initErrorReporting calls.
  // eslint-disable-next-line @typescript-eslint/consistent-type-assertions -- @sentry/react module and Replay types cannot be built by a test double
  const deps = {
    loadSentry: vi.fn(() => Promise.resolve(sdk)),
    loadReplay: vi.fn(() => Promise.resolve({ createReplayIntegration: () => replay })),
    whenIdle: () => Promise.resolve(),
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

  const config = { sentryDsn: 'https://key@sentry.example/1', sentryEnvironment: 'production' };

  it('loads the SDK only once the page has painted and the browser is idle', async () => {
    const { sdk, deps } = fakeSentry();
    let idle = () => {};
    const started = initErrorReporting(config, {
      ...deps,
      whenIdle: () => new Promise<void>((resolve) => (idle = resolve)),
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(deps.loadSentry).not.toHaveBeenCalled();
    idle();
    await expect(started).resolves.toBe(true);
    expect(sdk.init).toHaveBeenCalledTimes(1);
  });

  it('reports the errors and rejections raised before the SDK was loaded, once', async () => {
    queueEarlyErrors(window);
    const thrown = new Error('failed before Sentry');
    const rejected = new Error('rejected before Sentry');
    window.dispatchEvent(new ErrorEvent('error', { error: thrown, message: thrown.message }));
    window.dispatchEvent(Object.assign(new Event('unhandledrejection'), { reason: rejected }));
    const { sdk, deps } = fakeSentry();
    await initErrorReporting(config, deps);
    expect(sdk.captureException.mock.calls).toEqual([[thrown], [rejected]]);
    expect(sdk.captureException.mock.invocationCallOrder[0]).toBeGreaterThan(
      sdk.init.mock.invocationCallOrder[0] ?? Infinity,
    );
    // Sentry's own handlers take over: nothing more is kept.
    window.dispatchEvent(Object.assign(new Event('unhandledrejection'), { reason: 'later' }));
    resetErrorReporting();
    const second = fakeSentry();
    await initErrorReporting(config, second.deps);
    expect(second.sdk.captureException).not.toHaveBeenCalled();
  });

  it('keeps nothing when no DSN is configured', async () => {
    queueEarlyErrors(window);
    window.dispatchEvent(new ErrorEvent('error', { error: new Error('nobody to tell') }));
    await initErrorReporting({ sentryDsn: null, sentryEnvironment: 'prod' });
    const { sdk, deps } = fakeSentry();
    await initErrorReporting(config, deps);
    expect(sdk.captureException).not.toHaveBeenCalled();
  });
});
