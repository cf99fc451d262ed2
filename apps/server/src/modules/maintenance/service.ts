import type { AppContext } from '../../context.js';
import { deleteSettledMessagesBefore } from '../../messaging/outbox.js';
import { deleteAuditEventsBefore } from '../audit/service.js';
import { deleteExpiredChallenges } from '../biometrics/service.js';
import { deleteCodesExpiredBefore } from '../codes/service.js';
import { deleteExpiredTrustedDevices } from '../devices/service.js';
import { deleteLinksSettledBefore } from '../links/service.js';
import { purgeExpiredArtefacts } from '../oidc/service.js';
import { deleteExpiredSessions, forgetUnseenBrowsers } from '../sessions/service.js';
import { loadSettings } from '../settings/service.js';
import { deleteStaleThrottles } from '../throttle/service.js';
import { KNOWN_CLIENT_MS } from '../throttle/service.js';

const DAY_MS = 24 * 60 * 60_000;

/** How often each node runs the purge (it is idempotent: several nodes may run it). */
export const PURGE_INTERVAL_MS = 60 * 60_000;

/**
 * What is kept past its use, and for how long (docs/operations.md, "Data retention"): a day of
 * used codes and links (the send limits count the last hour), 30 days of settled messages (the
 * admin's messages screen), throttle counters past their longest window, and the audit trail for
 * the AUDIT_RETENTION setting (one year by default).
 */
export const KEEP_MS = {
  codesAndLinks: DAY_MS,
  settledMessages: 30 * DAY_MS,
  throttles: KNOWN_CLIENT_MS + DAY_MS,
} as const;

export interface PurgeCounts {
  sessions: number;
  trustedDevices: number;
  knownBrowsers: number;
  codes: number;
  links: number;
  challenges: number;
  messages: number;
  throttles: number;
  platformArtefacts: number;
  auditEvents: number;
}

/** Deletes what has expired or outlived its retention; returns how many rows of each. */
export async function purgeExpired(ctx: AppContext): Promise<PurgeCounts> {
  const now = ctx.clock.now();
  const { AUDIT_RETENTION } = await loadSettings(ctx);
  const db = ctx.db;
  return {
    sessions: await deleteExpiredSessions(db, now),
    trustedDevices: await deleteExpiredTrustedDevices(db, now),
    knownBrowsers: await forgetUnseenBrowsers(db, now),
    codes: await deleteCodesExpiredBefore(db, now - KEEP_MS.codesAndLinks),
    links: await deleteLinksSettledBefore(db, now - KEEP_MS.codesAndLinks),
    challenges: await deleteExpiredChallenges(db, now),
    messages: await deleteSettledMessagesBefore(db, now - KEEP_MS.settledMessages),
    throttles: await deleteStaleThrottles(db, now - KEEP_MS.throttles, now),
    platformArtefacts: await purgeExpiredArtefacts(ctx),
    auditEvents: await deleteAuditEventsBefore(db, now - AUDIT_RETENTION * 1000),
  };
}
