import { useState } from 'react';

/**
 * Keyset pages walked forwards and back: the cursors of the pages before this one are kept, so
 * "previous" returns to the exact page seen. `reset` goes back to the first page (a new filter).
 */
export function useKeysetPages() {
  const [cursors, setCursors] = useState<string[]>([]);
  return {
    cursor: cursors.at(-1),
    /** 1 for the first page. */
    page: cursors.length + 1,
    next: (cursor: string) => setCursors((current) => [...current, cursor]),
    previous: () => setCursors((current) => current.slice(0, -1)),
    reset: () => setCursors([]),
  };
}
