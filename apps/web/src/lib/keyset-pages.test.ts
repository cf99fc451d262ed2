import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useKeysetPages } from './keyset-pages';

describe('useKeysetPages', () => {
  it('walks forwards and back through the cursors it was given', () => {
    const { result } = renderHook(() => useKeysetPages());
    expect(result.current).toMatchObject({ page: 1, cursor: undefined });
    act(() => result.current.next('c1'));
    act(() => result.current.next('c2'));
    expect(result.current).toMatchObject({ page: 3, cursor: 'c2' });
    act(() => result.current.previous());
    expect(result.current).toMatchObject({ page: 2, cursor: 'c1' });
    act(() => result.current.reset());
    expect(result.current).toMatchObject({ page: 1, cursor: undefined });
  });

  it('starts again at the first page when the search changes, and never sends its cursor', () => {
    const { result, rerender } = renderHook(({ scope }) => useKeysetPages(scope), {
      initialProps: { scope: 'durand' },
    });
    act(() => result.current.next('durand-page-2'));
    expect(result.current.cursor).toBe('durand-page-2');
    rerender({ scope: 'dupont' });
    // The very render that sees the new search has no cursor of the former one.
    expect(result.current).toMatchObject({ page: 1, cursor: undefined });
    act(() => result.current.next('dupont-page-2'));
    expect(result.current).toMatchObject({ page: 2, cursor: 'dupont-page-2' });
    rerender({ scope: 'durand' });
    expect(result.current).toMatchObject({ page: 1, cursor: undefined });
  });
});
