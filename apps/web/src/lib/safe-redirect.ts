// Redirect targets come from the address bar: only same-origin, single-slash paths are followed
// (security.md "Requests": `//evil`, `/\evil`, `/%09/evil`, `https://api@evil` are dropped).

// Control characters and spaces are stripped or rewritten by URL parsers: refuse them outright.
// eslint-disable-next-line no-control-regex
const UNSAFE_CHARACTERS = /[\u0000-\u0020\u007f\\]/;

function hasUnsafeEncoding(value: string): boolean {
  try {
    return UNSAFE_CHARACTERS.test(decodeURIComponent(value));
  } catch {
    return true;
  }
}

/**
 * The `target_uri` to follow after login, as an absolute URL, or null. Kept only when it has the
 * API's origin (the page's own origin) and its path starts with a single '/'.
 */
export function safeTargetUri(target: string | null | undefined, origin: string): string | null {
  if (!target || target.length > 2048) return null;
  if (UNSAFE_CHARACTERS.test(target) || hasUnsafeEncoding(target)) return null;
  const relative = target.startsWith('/');
  if (relative ? target.startsWith('//') : !/^https?:\/\//i.test(target)) return null;
  let url: URL;
  try {
    url = new URL(target, origin);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.origin !== new URL(origin).origin || url.username || url.password) return null;
  if (!url.pathname.startsWith('/') || url.pathname.startsWith('//')) return null;
  return url.href;
}

/** An in-app path (`/x?y#z`) from a `redirect` parameter, or null when it is not a local path. */
export function safeInternalPath(value: string | null | undefined): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//')) return null;
  const base = 'http://hygie.invalid';
  const href = safeTargetUri(value, base);
  if (!href) return null;
  const url = new URL(href);
  return url.pathname + url.search + url.hash;
}
