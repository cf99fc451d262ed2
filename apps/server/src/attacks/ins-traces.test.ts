import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../test/helpers.js';
import { ADMIN, createTestApp, DIALECTS, signIn, TestClient } from '../test/helpers.js';
import { insNumber, LONG_SESSIONS, PASSWORD, registerPatients } from '../test/patients.js';

// Attacker suite (issue 21): whoever reads the log, the audit trail or the outbox (an operator, a
// log pipeline, an audit export, a leaked archive) finds no INS and no birth date in them — only
// the database's sealed columns hold them, and the person's own export and the admin's view show
// them.

const PARENT_INS = insNumber(700);
const NEW_INS = insNumber(701);
const UNKNOWN_INS = insNumber(702);
const BIRTH_DATE = '1980-05-17';

/** An INS as people type it: `2 80 01 75 056 100 42`. */
function spaced(ins: string): string {
  return [ins.slice(0, 1), ins.slice(1, 3), ins.slice(3, 5), ins.slice(5, 7), ins.slice(7, 10)]
    .concat([ins.slice(10, 13), ins.slice(13)])
    .join(' ');
}

/** The places `values` occur in `text`, as digits standing alone or spaced as typed. */
function occurrences(text: string, values: readonly string[]): string[] {
  const found: string[] = [];
  for (const value of values) {
    for (const form of [value, spaced(value)]) {
      if (new RegExp(`(^|[^0-9A-Za-z])${form}([^0-9A-Za-z]|$)`).test(text)) found.push(form);
    }
  }
  return found;
}

describe.each(DIALECTS)(
  'no INS or birth date in the log, audit trail or outbox on %s',
  (dialect) => {
    const lines: string[] = [];
    let t: TestApp;
    let insOf: string[];
    beforeAll(async () => {
      t = await createTestApp(dialect, {
        env: { LOG_LEVEL: 'debug', ...LONG_SESSIONS },
        deps: { logger: { stream: { write: (line: string) => lines.push(line) } } },
      });
      const patients = await registerPatients(t, 2, 'traces');
      insOf = patients.map((p) => p.ins);
      const [first, second] = patients;
      if (!first || !second) throw new Error('no patients');

      // Signs in by INS typed with spaces; gives a parent's INS; changes the INS.
      const client = new TestClient(t.app);
      expect((await signIn(t, client, spaced(first.ins), PASSWORD)).statusCode).toBe(200);
      const parent = await client.request({
        method: 'PATCH',
        url: '/api/profile',
        payload: { parentIns: spaced(PARENT_INS) },
      });
      expect(parent.statusCode).toBe(200);
      const changed = await client.request({
        method: 'PATCH',
        url: '/api/profile',
        payload: { ins: NEW_INS },
      });
      expect(changed.statusCode).toBe(200);

      // Failed sign-ins: a wrong password on an INS, an INS no account has.
      expect((await new TestClient(t.app).login(NEW_INS, 'Wrong-Password-1')).statusCode).toBe(401);
      expect((await new TestClient(t.app).login(spaced(UNKNOWN_INS), PASSWORD)).statusCode).toBe(
        401,
      );

      // Another patient tries to take the first one's INS: refused, and its owner is told.
      const other = new TestClient(t.app);
      expect((await signIn(t, other, second.ins, PASSWORD)).statusCode).toBe(200);
      const taken = await other.request({
        method: 'PATCH',
        url: '/api/profile',
        payload: { ins: spaced(NEW_INS) },
      });
      expect(taken.statusCode).toBe(400);

      // The admin searches by INS and corrects the second patient's birth date.
      const admin = new TestClient(t.app);
      expect((await signIn(t, admin, ADMIN.email, ADMIN.password)).statusCode).toBe(200);
      expect(
        (await admin.get(`/api/admin/users?q=${encodeURIComponent(NEW_INS)}`)).statusCode,
      ).toBe(200);
      const corrected = await admin.request({
        method: 'PATCH',
        url: `/api/admin/users/${second.id}/identity`,
        payload: { birthDate: '02/03/1975' },
      });
      expect(corrected.statusCode).toBe(200);
    }, 60_000);
    afterAll(() => t.close());

    const secrets = () => [
      ...insOf,
      PARENT_INS,
      NEW_INS,
      UNKNOWN_INS,
      BIRTH_DATE,
      '17/05/1980',
      '1975-03-02',
      '02/03/1975',
    ];

    it('writes none in the server log', () => {
      expect(lines.length).toBeGreaterThan(10);
      // The requests above are in it (their method and path).
      expect(lines.join('\n')).toContain('/api/login');
      expect(occurrences(lines.join('\n'), secrets())).toEqual([]);
    });

    it('writes none in the audit trail', async () => {
      const rows = await t.ctx.db.selectFrom('audit_events').selectAll().execute();
      expect(rows.map((row) => row.action)).toEqual(
        expect.arrayContaining(['profile_updated', 'identity_corrected', 'login_failed']),
      );
      expect(occurrences(JSON.stringify(rows), secrets())).toEqual([]);
    });

    it('writes none in the outbox', async () => {
      const rows = await t.ctx.db.selectFrom('outbox').selectAll().execute();
      expect(rows.length).toBeGreaterThan(0);
      expect(occurrences(JSON.stringify(rows), secrets())).toEqual([]);
    });
  },
);
