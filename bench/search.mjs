// Admin search at scale (bench/scale.mjs): for each database and each size of BENCH_SIZES
// (default 1,000, 100,000 and 1,000,000 users), the latency of each kind of admin search on a
// seeded table, one request at a time, with GET /api/me as the baseline of the same run; the
// ratio of each search's p95 at the largest size to its p95 at the smallest (flat search: ≤ 1.5),
// and search ÷ /api/me.
import { createHmac } from 'node:crypto';
import { INDEX_KEY, runScale } from './scale.mjs';

const LAST = ['martin', 'bernard', 'dubois', 'thomas', 'robert'];
const LAST2 = ['richard', 'petit', 'durand', 'leroy', 'moreau'];
const FIRST = [
  'jeanne',
  'louis',
  'lea',
  'hugo',
  'chloe',
  'lucas',
  'emma',
  'nathan',
  'ines',
  'paul',
];

/** Half the accounts bear one of five very common names; the others are spread over many. */
const lastName = (i) =>
  i % 2 === 0 ? LAST[(i / 2) % LAST.length] : `${LAST2[i % LAST2.length]}${i}`;
const firstName = (i) => FIRST[Math.floor(i / 7) % FIRST.length];
const phoneOf = (i) => `+336${String(10_000_000 + i).slice(-8)}`;
const insOf = (i) =>
  `${String(1_800_000_000_000 + i)}${String(97 - ((1_800_000_000_000 + i) % 97)).padStart(2, '0')}`;
const rppsOf = (i) => String(10_000_000_000 + i);
/** Every 100th account holds an INS (its blind index: the INS itself stays out of the bench). */
const hasIns = (i) => i % 100 === 3;
const isProfessional = (i) => i % 10 === 7;

/** The columns the seed writes, in the order of `userRow`'s values. */
const COLUMNS = [
  'id',
  'email',
  'phone',
  'profile',
  'status',
  'first_name',
  'last_name',
  'created_at',
  'updated_at',
  'search_name',
  'professional_id_type',
  'professional_id',
  'ins_index',
];
/** The same for every account. */
const CONSTANTS = {
  type: "'person'",
  email_verified_at: '1',
  must_create_password: '0',
  roles: "'[]'",
  language: "'fr'",
  cgu_version: "'2026-01'",
};

/**
 * Account `i` as the values of COLUMNS: one generator of rows, a writer per database. The last
 * (ins_index) is left out when the build measured predates the column.
 */
function userRow(i) {
  const first = firstName(i);
  const last = lastName(i);
  const at = 1_700_000_000_000 + i;
  const pro = isProfessional(i);
  return [
    `00000000-0000-7000-8000-${String(i).padStart(12, '0')}`,
    `user${i}@bench.test`,
    phoneOf(i),
    pro ? 'professional' : 'patient',
    i % 100 === 42 ? 'locked' : 'active',
    first,
    last,
    at,
    at,
    `${last} ${first}`,
    pro ? 'RPPS' : null,
    pro ? rppsOf(i) : null,
    hasIns(i)
      ? createHmac('sha256', INDEX_KEY)
          .update(`users.ins\0${insOf(i)}`)
          .digest('base64url')
      : null,
  ];
}

/** The users table as the seed writes it: account `i` as userRow(i). */
const usersSeed = (count) => [
  {
    table: 'users',
    columns: COLUMNS,
    constants: CONSTANTS,
    row: userRow,
    count,
    pgTypes: { created_at: 'bigint', updated_at: 'bigint' },
  },
];

// Accounts that exist at every size (the smallest has 1,000).
const rare = 777;
const search = (query) => `/api/admin/users?${query}`;

await runScale({
  name: 'search',
  rows: 'users',
  seeds: usersSeed,
  cases: () => ({
    cases: {
      'list, newest first': search('q='),
      'common name (martin)': search('q=martin'),
      // No "martin" is locked: the name's range is empty, then the e-mails' with the status.
      'common name + status': search('q=martin&status=locked'),
      // No bench account but the admin is one: the admins' own index is read, not the name's
      // entries (docs/decisions.md "Admin search").
      'common name + role=admin': search('q=martin&role=admin'),
      // The admins among the active accounts (nearly all): read from the admins' own index.
      'status + role=admin': search('status=active&role=admin'),
      // No bench account lacks a profile: their own index is read, not every account's entry.
      'no profile': search('type=none'),
      'status + no profile': search('status=active&type=none'),
      'rare name (full)': search(`q=${encodeURIComponent(`${lastName(rare)} ${firstName(rare)}`)}`),
      'e-mail prefix': search('q=user77'),
      'e-mail prefix + status': search('q=user77&status=locked'),
      'e-mail with @': search(`q=${encodeURIComponent(`user${rare}@`)}`),
      phone: search(
        `q=${encodeURIComponent(
          `06 ${phoneOf(rare)
            .slice(4)
            .replace(/(\d\d)(?=\d)/g, '$1 ')}`,
        )}`,
      ),
      INS: search(`q=${insOf(703)}`),
      RPPS: search(`q=${rppsOf(rare)}`),
      'RPPS + status': search(`q=${rppsOf(rare)}&status=locked`),
    },
    // Page DEEP_PAGE of 20 rows, or the last page where there are fewer (100 "martin" at 1,000).
    deep: {
      'common name, deep page': search('q=martin&pageSize=20'),
      'list, deep page': search('q=&pageSize=20'),
    },
  }),
});
