// The operator's lists at scale (bench/scale.mjs): for each database and each size of BENCH_SIZES
// (default 1,000, 100,000 and 1,000,000 rows in each table), the audit trail and the message
// queue seeded with that many rows, and the latency of their screens' pages, one request at a
// time, with GET /api/me as the baseline of the same run: the newest first, one person's trail,
// one day, by type, by channel and by status, a deep page, and a metrics scrape (it counts the
// waiting messages). Prints the ratio of each page's p95 at the largest size to its p95 at the
// smallest (flat: ≤ 1.5). The trail by a rare type is expected to grow: it walks the time order
// and skips the other types (docs/performance.md, "Every hot path's statements, explained").
import { METRICS_TOKEN, runScale } from './scale.mjs';

const DAY_MS = 24 * 60 * 60_000;
/** The seed's rows are dated back from now, within what the hourly purge keeps. */
const NOW = Date.now();
/** The trail spans 300 days (kept a year), the queue 25 (settled messages are kept 30). */
const TRAIL_DAYS = 300;
const QUEUE_DAYS = 25;
/** The people the rows are about: the same 50,000 at every size (fewer rows: fewer of them). */
const PEOPLE = 50_000;
const personId = (n) => `00000000-0000-7000-8000-${String(n % PEOPLE).padStart(12, '0')}`;
/** A person with rows at every size (the smallest has 1,000). */
const SOMEONE = 777;

/** Event `i`'s action: 0.1 % password resets, 4 % failed sign-ins, the rest a sign-in's steps. */
function actionOf(i) {
  if (i % 1000 === 999) return 'password_reset';
  if (i % 25 === 1) return 'login_failed';
  return ['login', 'second_factor_sent', 'second_factor_passed', 'sign_in_completed'][i % 4];
}

const trailSeed = (count) => {
  const step = Math.max(1, Math.floor((TRAIL_DAYS * DAY_MS) / count));
  return {
    table: 'audit_events',
    columns: ['id', 'at', 'actor_id', 'action', 'target_id', 'ip', 'user_agent'],
    pgTypes: { at: 'bigint' },
    count,
    row: (i) => {
      const action = actionOf(i);
      return [
        `00000000-0000-7000-a000-${String(i).padStart(12, '0')}`,
        NOW - (i + 1) * step,
        action === 'login_failed' ? null : personId(i),
        action,
        personId(i),
        `203.0.113.${i % 250}`,
        'Mozilla/5.0 (bench)',
      ];
    },
  };
};

/** Message `i`: 60 % e-mails, 30 % SMS, 10 % back-channel logouts; 0.5 % failed, 2 % expired. */
const queueSeed = (count) => {
  const step = Math.max(1, Math.floor((QUEUE_DAYS * DAY_MS) / count));
  return {
    table: 'outbox',
    columns: [
      'id',
      'channel',
      'recipient',
      'template',
      'status',
      'attempts',
      'next_attempt_at',
      'last_error',
      'created_at',
      'sent_at',
    ],
    constants: { language: "'fr'", brand: "'hygie'", params: "'{}'" },
    pgTypes: {
      attempts: 'integer',
      next_attempt_at: 'bigint',
      created_at: 'bigint',
      sent_at: 'bigint',
    },
    count,
    row: (i) => {
      const at = NOW - (i + 1) * step;
      const channel = i % 10 < 6 ? 'email' : i % 10 < 9 ? 'sms' : 'logout';
      const status = i % 200 === 5 ? 'failed' : i % 50 === 7 ? 'expired' : 'sent';
      const recipient =
        channel === 'email'
          ? `user${i % PEOPLE}@bench.test`
          : channel === 'sms'
            ? `+336${String(10_000_000 + (i % PEOPLE)).slice(-8)}`
            : 'bench-platform';
      return [
        `00000000-0000-7000-b000-${String(i).padStart(12, '0')}`,
        channel,
        recipient,
        channel === 'logout' ? 'backchannel_logout' : 'mfa_code',
        status,
        status === 'failed' ? 8 : 1,
        at,
        status === 'failed' ? 'bench: the relay refused the message' : null,
        at,
        status === 'sent' ? at + 1000 : null,
      ];
    },
  };
};

/** A day in the middle of the trail, as the trail's filter takes it. */
const someDay = new Date(NOW - 10 * DAY_MS).toISOString().slice(0, 10);

await runScale({
  name: 'lists',
  rows: 'events and messages',
  seeds: (count) => [trailSeed(count), queueSeed(count)],
  cases: () => ({
    cases: {
      'trail, newest first': '/api/admin/audit',
      'trail of one person': `/api/admin/audit?user=${personId(SOMEONE)}`,
      'trail, one day': `/api/admin/audit?from=${someDay}&to=${someDay}`,
      'trail by type (4 %)': '/api/admin/audit?type=login_failed',
      'trail by type (0.1 %)': '/api/admin/audit?type=password_reset',
      'messages, newest first': '/api/admin/messages',
      'messages by channel (SMS)': '/api/admin/messages?channel=sms',
      'messages failed (0.5 %)': '/api/admin/messages?status=failed',
      'SMS failed': '/api/admin/messages?status=failed&channel=sms',
      "one person's trail by type": `/api/admin/audit?user=${personId(SOMEONE)}&type=login`,
      'one day by type (4 %)': `/api/admin/audit?from=${someDay}&to=${someDay}&type=login_failed`,
      'metrics scrape': { path: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } },
    },
    deep: {
      'trail, deep page': '/api/admin/audit?limit=20',
      'messages, deep page': '/api/admin/messages?limit=20',
    },
  }),
});
