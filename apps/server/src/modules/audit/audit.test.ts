import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditPage } from '@hygie/domain';
import type { TestApp } from '../../test/helpers.js';
import {
  ADMIN,
  createTestApp,
  createUser,
  DIALECTS,
  signIn,
  TestClient,
} from '../../test/helpers.js';
import { csvField } from './query.js';

describe('csvField', () => {
  it('quotes separators, quotes and line breaks, and neutralises formulas', () => {
    expect(csvField(null)).toBe('');
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('=HYPERLINK("http://x")')).toBe('"\'=HYPERLINK(""http://x"")"');
    for (const start of ['+', '-', '@', '\t', '\r']) {
      expect(csvField(`${start}1`).replace(/^"/, '').startsWith("'")).toBe(true);
    }
  });
});

describe.each(DIALECTS)('the audit trail on %s', (dialect) => {
  let t: TestApp;
  let admin: TestClient;
  let personId: string;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    admin = new TestClient(t.app);
    expect((await signIn(t, admin)).statusCode).toBe(200);
    personId = await createUser(t, {
      email: 'trail@hygie.test',
      password: 'Trail-Passw0rd-1',
      phone: '+33657000077',
    });
    // Failed sign-ins from a client whose user agent is a spreadsheet formula.
    const intruder = new TestClient(t.app);
    for (let i = 0; i < 3; i += 1) {
      t.clock.advance(1000);
      await intruder.request({
        method: 'POST',
        url: '/api/login',
        payload: { username: 'trail@hygie.test', password: `wrong-${i}` },
        headers: { 'user-agent': '=HYPERLINK("http://evil.example","x"),more' },
      });
    }
    t.clock.advance(1000);
    const signedIn = await signIn(t, new TestClient(t.app), 'trail@hygie.test', 'Trail-Passw0rd-1');
    expect(signedIn.statusCode).toBe(200);
  });
  afterAll(() => t.close());

  const page = async (query: string) => {
    const res = await admin.get(`/api/admin/audit?${query}`);
    expect(res.statusCode).toBe(200);
    return res.json<AuditPage>();
  };

  it('filters by user, action and period, newest first', async () => {
    const failed = await page(`user=${personId}&type=login_failed`);
    expect(failed.items).toHaveLength(3);
    expect(failed.items.every((e) => e.targetId === personId && e.action === 'login_failed')).toBe(
      true,
    );
    const times = failed.items.map((e) => e.at);
    expect([...times].sort().reverse()).toEqual(times);
    expect(failed.items[0]?.requestId).toEqual(expect.any(String));
    expect(failed.items[0]?.userAgent).toContain('HYPERLINK');

    const today = new Date(t.clock.now()).toISOString().slice(0, 10);
    expect((await page(`user=${personId}&from=${today}&to=${today}`)).items.length).toBeGreaterThan(
      3,
    );
    const tomorrow = new Date(t.clock.now() + 86_400_000).toISOString().slice(0, 10);
    expect((await page(`from=${tomorrow}`)).items).toEqual([]);
    const justBefore = new Date(Date.parse(failed.items[0]?.at ?? '') - 1).toISOString();
    expect((await page(`user=${personId}&type=login_failed&to=${justBefore}`)).items).toHaveLength(
      2,
    );
    expect((await admin.get('/api/admin/audit?type=DROP%20TABLE')).statusCode).toBe(400);
    expect((await admin.get('/api/admin/audit?from=2026-02-30')).statusCode).toBe(400);
  });

  it('pages with a cursor: every event once, in order', async () => {
    const all = await page('limit=200');
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const next: AuditPage = await page(`limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...next.items.map((e) => e.id));
      cursor = next.nextCursor;
    } while (cursor);
    expect(seen).toEqual(all.items.map((e) => e.id));
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('exports CSV with formulas neutralised, and audits the export', async () => {
    const res = await admin.get(`/api/admin/audit/export?user=${personId}&type=login_failed`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="audit-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const lines = res.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe('at,action,actor_id,target_id,ip,user_agent,request_id,details');
    expect(lines).toHaveLength(4);
    for (const line of lines.slice(1)) {
      expect(line).toContain(',login_failed,');
      expect(line).toContain(`"'=HYPERLINK(""http://evil.example"",""x""),more"`);
    }
    const exported = await page('type=audit_exported');
    expect(exported.items[0]).toMatchObject({
      actorId: expect.any(String),
      details: { user: personId, type: 'login_failed' },
    });
  });

  it('is for admins only', async () => {
    const person = new TestClient(t.app);
    await signIn(t, person, 'trail@hygie.test', 'Trail-Passw0rd-1');
    expect((await person.get('/api/admin/audit')).statusCode).toBe(403);
    expect((await person.get('/api/admin/audit/export')).statusCode).toBe(403);
    expect((await new TestClient(t.app).get('/api/admin/audit/export')).statusCode).toBe(401);
    void ADMIN;
  });
});
