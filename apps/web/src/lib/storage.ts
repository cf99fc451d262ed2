// Storage can throw (disabled cookies, private modes, sandboxed webviews): the app must keep working.

function safeStorage(kind: 'localStorage' | 'sessionStorage'): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window[kind];
  } catch {
    return null;
  }
}

export function readStorage(kind: 'localStorage' | 'sessionStorage', key: string): string | null {
  try {
    return safeStorage(kind)?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function writeStorage(
  kind: 'localStorage' | 'sessionStorage',
  key: string,
  value: string | null,
): void {
  try {
    const storage = safeStorage(kind);
    if (value === null) storage?.removeItem(key);
    else storage?.setItem(key, value);
  } catch {
    // Nothing to do: the value is simply not remembered.
  }
}
