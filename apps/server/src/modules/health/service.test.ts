import { afterEach, describe, expect, it, vi } from 'vitest';
import { checkReadiness } from './service.js';

describe('checkReadiness', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is ready when not draining and the database answers', async () => {
    const ping = vi.fn(() => Promise.resolve());
    expect(await checkReadiness({ ping }, { draining: false })).toEqual({ ready: true });
  });

  it('is not ready while draining, without asking the database', async () => {
    const ping = vi.fn(() => Promise.resolve());
    expect(await checkReadiness({ ping }, { draining: true })).toEqual({
      ready: false,
      reason: 'draining',
    });
    expect(ping).not.toHaveBeenCalled();
  });

  it('is not ready when the ping fails', async () => {
    const err = new Error('connection refused');
    expect(await checkReadiness({ ping: () => Promise.reject(err) }, { draining: false })).toEqual({
      ready: false,
      reason: 'database',
      err,
    });
  });

  it('gives up on a ping that hangs after 2 s', async () => {
    vi.useFakeTimers();
    const pending = checkReadiness({ ping: () => new Promise(() => {}) }, { draining: false });
    await vi.advanceTimersByTimeAsync(2000);
    expect(await pending).toMatchObject({ ready: false, reason: 'database' });
  });
});
