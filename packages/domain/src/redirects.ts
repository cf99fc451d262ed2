// Redirect targets come from the address bar (security.md "Requests"): only the API's origin is
// followed; `//evil`, `/\evil`, `/%09/evil` and `https://api@evil` are dropped. The server and the
// web client both decide with these functions, so a target one follows the other follows too.
// (The server also honours an exact post-logout URI a platform registered: that list lives in the
// database, so the logout route checks it after this rule.)

const MAX_LENGTH = 2048;

// URL parsers strip tabs and newlines and read `\` as `/`, which can turn `/\t/evil` or `/\evil`
// into `//evil`: such characters are refused outright rather than normalised.
// eslint-disable-next-line no-control-regex -- the control characters are what it refuses
const UNSAFE_CHARACTERS = /[\u0000-\u0020\u007f\\]/;

/** Whether the decoded path could become another host after one more decoding hop. */
function hasUnsafePath(pathname: string): boolean {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return true;
  }
  return UNSAFE_CHARACTERS.test(decoded) || decoded.startsWith('//');
}

/**
 * The redirect target to follow as an absolute URL, or null: kept only when it is a path starting
 * with a single `/` or an http(s) URL of `origin` (the API's public origin), without credentials.
 */
export function safeTargetUri(target: unknown, origin: string): string | null {
  if (typeof target !== 'string' || target.length === 0 || target.length > MAX_LENGTH) return null;
  if (UNSAFE_CHARACTERS.test(target)) return null;
  const isPath = target.startsWith('/');
  if (isPath ? target.startsWith('//') : !/^https?:\/\//i.test(target)) return null;
  let url: URL;
  try {
    url = new URL(target, origin);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.origin !== new URL(origin).origin || url.username || url.password) return null;
  if (hasUnsafePath(url.pathname)) return null;
  return url.href;
}

/** An in-app path (`/x?y#z`) from a `redirect` parameter, or null when it is not a local path. */
export function safeInternalPath(value: unknown): string | null {
  if (typeof value !== 'string' || !value.startsWith('/')) return null;
  const href = safeTargetUri(value, 'http://hygie.invalid');
  if (!href) return null;
  const url = new URL(href);
  return url.pathname + url.search + url.hash;
}
