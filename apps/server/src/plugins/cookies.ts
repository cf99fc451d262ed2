import type { FastifyReply } from 'fastify';
import type { Config } from '../config.js';

/** Browsers keep a cookie 400 days at most (RFC 6265bis). */
const BROWSER_COOKIE_SECONDS = 400 * 24 * 60 * 60;

/** Cookie names and attributes: `__Host-` and Secure when the public URL is HTTPS. */
export function cookiePolicy(config: Config) {
  const secure = config.publicUrl.protocol === 'https:';
  const sessionCookie = secure ? '__Host-hygie_session' : 'hygie_session';
  const deviceCookie = secure ? '__Host-hygie_device' : 'hygie_device';
  const browserCookie = secure ? '__Host-hygie_browser' : 'hygie_browser';
  const pendingLinkCookie = secure ? '__Host-hygie_idp_link' : 'hygie_idp_link';
  const pendingLinkOptions = { path: '/', httpOnly: true, sameSite: 'lax', secure } as const;
  const upstreamLogoutCookie = secure ? '__Host-hygie_idp_logout' : 'hygie_idp_logout';
  return {
    secure,
    sessionCookie,
    deviceCookie,
    browserCookie,
    pendingLinkCookie,
    upstreamLogoutCookie,
    xsrfCookie: config.xsrfCookieName,
    /**
     * The session cookie lives as long as the browser session (no Expires): closing the browser
     * on a shared computer ends it. The server still enforces the idle and absolute time-outs.
     */
    setSession(reply: FastifyReply, token: string): void {
      void reply.setCookie(sessionCookie, token, {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        secure,
      });
    },
    clearSession(reply: FastifyReply): void {
      void reply.clearCookie(sessionCookie, { path: '/', httpOnly: true, sameSite: 'lax', secure });
    },
    /** The trusted-device cookie: HttpOnly, long-lived, only sent back to this origin. */
    setDevice(reply: FastifyReply, token: string, expiresAt: number): void {
      void reply.setCookie(deviceCookie, token, {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        secure,
        expires: new Date(expiresAt),
      });
    },
    /**
     * The browser cookie: a random token naming this browser, so a sign-in from a browser the
     * account used before sends no notice. HttpOnly; 400 days, the longest browsers keep one.
     */
    setBrowser(reply: FastifyReply, token: string): void {
      void reply.setCookie(browserCookie, token, {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        secure,
        maxAge: BROWSER_COOKIE_SECONDS,
      });
    },
    /** A provider's identity waiting for the account to be proven (docs/identity-providers.md). */
    setPendingLink(reply: FastifyReply, value: string, maxAgeSeconds: number): void {
      void reply.setCookie(pendingLinkCookie, value, {
        ...pendingLinkOptions,
        maxAge: maxAgeSeconds,
      });
    },
    clearPendingLink(reply: FastifyReply): void {
      void reply.clearCookie(pendingLinkCookie, pendingLinkOptions);
    },
    /**
     * While the browser ends its session at an upstream provider: the sealed state and target of
     * the way back (docs/identity-providers.md, logout). Lax: the provider's redirect back is a
     * top-level navigation.
     */
    setUpstreamLogout(reply: FastifyReply, value: string, maxAgeSeconds: number): void {
      void reply.setCookie(upstreamLogoutCookie, value, {
        ...pendingLinkOptions,
        maxAge: maxAgeSeconds,
      });
    },
    clearUpstreamLogout(reply: FastifyReply): void {
      void reply.clearCookie(upstreamLogoutCookie, pendingLinkOptions);
    },
    setXsrf(reply: FastifyReply, value: string): void {
      // Readable by the SPA, which echoes it in the x-xsrf-token header.
      void reply.setCookie(config.xsrfCookieName, value, {
        path: '/',
        httpOnly: false,
        sameSite: 'lax',
        secure,
      });
    },
  };
}
export type CookiePolicy = ReturnType<typeof cookiePolicy>;
