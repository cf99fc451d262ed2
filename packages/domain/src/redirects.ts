/**
 * The redirect target to follow, or null: only a URL of `origin` (the API's public origin) is kept.
 * Relative paths are resolved against it, so `//evil`, `/\evil` and `https://api@evil` fall out.
 */
export function safeTargetUri(target: unknown, origin: string): string | null {
  if (typeof target !== 'string' || target.length === 0 || target.length > 2048) return null;
  // Control characters are stripped by URL parsers and can turn `/\t/evil` into `//evil`.
  if ([...target].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) return null;
  let url: URL;
  try {
    url = new URL(target, origin);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.origin !== new URL(origin).origin || url.username || url.password) return null;
  return url.href;
}
