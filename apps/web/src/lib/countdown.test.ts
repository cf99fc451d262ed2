import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useCountdown } from './countdown';

describe('useCountdown', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('counts down once a second to zero', () => {
    const { result } = renderHook(() => useCountdown());
    expect(result.current.seconds).toBe(0);
    act(() => result.current.start(3));
    expect(result.current.seconds).toBe(3);
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    expect(result.current.seconds).toBe(2);
    act(() => {
      vi.advanceTimersByTime(2000);
    });
    expect(result.current.seconds).toBe(0);
    act(() => {
      vi.advanceTimersByTime(5000);
    });
    expect(result.current.seconds).toBe(0);
  });

  it('restarts from a new duration', () => {
    const { result } = renderHook(() => useCountdown());
    act(() => result.current.start(60));
    act(() => {
      vi.advanceTimersByTime(10_000);
    });
    expect(result.current.seconds).toBe(50);
    act(() => result.current.start(42));
    expect(result.current.seconds).toBe(42);
    act(() => result.current.start(0));
    expect(result.current.seconds).toBe(0);
  });
});
