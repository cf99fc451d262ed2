/** The browser and system a user agent names, null where not recognised (no database needed). */
export function parseUserAgent(ua: string | null): {
  browser: string | null;
  os: string | null;
} {
  if (!ua) return { browser: null, os: null };
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /Firefox\//.test(ua)
      ? 'Firefox'
      : /Chrome\/|Chromium\//.test(ua)
        ? 'Chrome'
        : /Safari\//.test(ua)
          ? 'Safari'
          : null;
  const os = /Android/.test(ua)
    ? 'Android'
    : /iPhone|iPad|iPod/.test(ua)
      ? 'iOS'
      : /Windows/.test(ua)
        ? 'Windows'
        : /Mac OS X|Macintosh/.test(ua)
          ? 'macOS'
          : /Linux/.test(ua)
            ? 'Linux'
            : null;
  return { browser, os };
}

/** A short, readable device description for notices and the device list ("Chrome / Windows"). */
export function describeUserAgent(ua: string | null): string {
  if (!ua) return '?';
  const { browser, os } = parseUserAgent(ua);
  return `${browser ?? 'Browser'} / ${os ?? '?'}`;
}
