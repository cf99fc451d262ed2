import { useState } from 'react';

/**
 * Keyset pages walked forwards and back: the cursors of the pages before this one are kept, so
 * "previous" returns to the exact page seen. `reset` goes back to the first page (a new filter).
 * A cursor belongs to one search: given `scope` (the search as a string), the pages start again
 * at the first one whenever it changes, so a cursor is never sent with another search.
 */
export function useKeysetPages(scope = '') {
  const [state, setState] = useState<{ scope: string; cursors: string[] }>({
    scope,
    cursors: [],
  });
  const cursors = state.scope === scope ? state.cursors : [];
  const setCursors = (change: (current: string[]) => string[]) =>
    setState((current) => ({
      scope,
      cursors: change(current.scope === scope ? current.cursors : []),
    }));
  return {
    cursor: cursors.at(-1),
    /** 1 for the first page. */
    page: cursors.length + 1,
    next: (cursor: string) => setCursors((current) => [...current, cursor]),
    previous: () => setCursors((current) => current.slice(0, -1)),
    reset: () => setCursors(() => []),
  };
}
