import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/helpers.js';
import {
  ADMIN,
  createTestApp,
  signIn,
  TestClient,
  TEXT_RANGE_TARGETS,
} from '../../test/helpers.js';
import type { SearchUser } from '../../test/search-users.js';
import { insertSearchUsers } from '../../test/search-users.js';

interface Page {
  items: { id: string; email: string; status: string; type: string | null }[];
  nextCursor: string | null;
}

const AT = 1_750_000_000_000;
/** Ids in an order unrelated to the names or the insertion order. */
const scrambled = (i: number) => `s-${String((i * 7919) % 1000).padStart(4, '0')}-${i}`;

// The admin search's keyset pages (docs/decisions.md, "Admin search"): every matching account
// once, in the order of the index behind the search, whatever the ties in its sort key and
// whatever is written between two pages; filters; cursors of another search refused. On
// PostgreSQL databases whose collation orders text otherwise than byte by byte too: the name key
// and the e-mail are read as prefix ranges (migration 0026).
describe.each(TEXT_RANGE_TARGETS)('admin user search pages on $name', (target) => {
  let t: TestApp;
  let admin: TestClient;
  /** 23 "Marie Durand", one instant, seven sharing a phone, with every status, profile, role. */
  const maries: SearchUser[] = Array.from({ length: 23 }, (_, i) => ({
    id: scrambled(i),
    email: `marie.durand.${i}@ties.test`,
    firstName: 'Marie',
    lastName: 'Durand',
    phone: i < 7 ? '+33611111111' : null,
    status: i % 5 === 0 ? 'locked' : 'active',
    profile: i % 3 === 0 ? 'professional' : 'patient',
    admin: i % 4 === 0,
    createdAt: AT,
  }));
  const others: SearchUser[] = [
    { id: 'o-1', email: 'paul@ties.test', firstName: 'Paul', lastName: 'Durandal', createdAt: AT },
    { id: 'o-2', email: 'ana@ties.test', firstName: 'Ana', lastName: 'Dupont', createdAt: AT + 1 },
    {
      id: 'o-3',
      email: 'elodie@ties.test',
      firstName: 'Élodie',
      lastName: 'Lefèvre',
      createdAt: AT + 2,
    },
  ];

  beforeAll(async () => {
    t = await createTestApp(
      target.dialect,
      target.collation ? { collation: target.collation } : {},
    );
    admin = new TestClient(t.app);
    await signIn(t, admin, ADMIN.email, ADMIN.password);
    await insertSearchUsers(t, [...maries, ...others]);
  });
  afterAll(() => t.close());

  const page = async (query: string, cursor?: string | null): Promise<Page> => {
    const response = await admin.get(
      `/api/admin/users?${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    expect(response.statusCode).toBe(200);
    return response.json();
  };

  /** Every page of a search, `pageSize` at a time: the ids in the order the pages gave them. */
  const walk = async (query: string, pageSize: number): Promise<string[]> => {
    const ids: string[] = [];
    let cursor: string | null = null;
    for (let n = 0; n < 100; n++) {
      const next: Page = await page(`${query}&pageSize=${pageSize}`, cursor);
      expect(next.items.length).toBeLessThanOrEqual(pageSize);
      if (next.nextCursor) expect(next.items).toHaveLength(pageSize);
      ids.push(...next.items.map((u) => u.id));
      cursor = next.nextCursor;
      if (!cursor) return ids;
    }
    throw new Error('the pages never end');
  };

  const idsOf = (users: SearchUser[]) => users.map((u) => u.id);
  const byId = (ids: string[]) => [...ids].sort();

  it('pages a name shared by many, in one instant, once each and by id within the name', async () => {
    const ids = await walk('q=durand%20marie', 4);
    expect(ids).toEqual(byId(idsOf(maries)));
    // The same order as one page holding them all, for a wider prefix too.
    const all = (await page('q=DURAND&pageSize=100')).items.map((u) => u.id);
    expect(new Set(all)).toEqual(new Set([...idsOf(maries), 'o-1']));
    expect(await walk('q=DURAND', 5)).toEqual(all);
  });

  it('gives every account once across pages while accounts are created between them', async () => {
    const first = await page('q=durand%20marie&pageSize=5');
    // One new account sorts before the cursor (a lower id), one after it.
    await insertSearchUsers(t, [
      { ...maries[0]!, id: 's-0000-new', email: 'new.before@ties.test' },
      { ...maries[0]!, id: 's-9999-new', email: 'new.after@ties.test' },
    ]);
    try {
      const seen = first.items.map((u) => u.id);
      let cursor = first.nextCursor;
      while (cursor) {
        const next = await page('q=durand%20marie&pageSize=5', cursor);
        seen.push(...next.items.map((u) => u.id));
        cursor = next.nextCursor;
      }
      expect(new Set(seen).size).toBe(seen.length);
      expect(byId(seen.filter((id) => !id.endsWith('-new')))).toEqual(byId(idsOf(maries)));
      expect(seen).toContain('s-9999-new');
      expect(seen).not.toContain('s-0000-new');
    } finally {
      await t.ctx.db.deleteFrom('users').where('id', 'like', '%-new').execute();
    }
  });

  it('filters by status, role and profile inside the name order', async () => {
    const expected = (keep: (u: SearchUser) => boolean) => byId(idsOf(maries.filter(keep)));
    expect(await walk('q=durand%20marie&status=locked', 2)).toEqual(
      expected((u) => u.status === 'locked'),
    );
    expect(await walk('q=durand%20marie&role=admin', 2)).toEqual(expected((u) => u.admin === true));
    expect(await walk('q=durand%20marie&role=user&type=professional&status=active', 2)).toEqual(
      expected((u) => !u.admin && u.profile === 'professional' && u.status === 'active'),
    );
    expect(await walk('q=durand%20marie&type=none', 2)).toEqual([]);
  });

  it('finds the accounts without a profile by their own index, with a status checked on them', async () => {
    const setStatus = (id: string, status: 'locked' | 'active') =>
      t.ctx.db.updateTable('users').set({ status }).where('id', '=', id).execute();
    // Ana Dupont and Paul Durandal have no profile; Paul is locked for the while.
    await setStatus('o-1', 'locked');
    try {
      expect(await walk('q=du&type=none', 1)).toEqual(['o-2', 'o-1']);
      expect(await walk('q=du&type=none&status=active', 1)).toEqual(['o-2']);
      expect(await walk('q=du&type=none&status=locked', 1)).toEqual(['o-1']);
      expect(await walk('q=paul%40&type=none&status=locked', 1)).toEqual(['o-1']);
      expect(await walk('q=paul%40&type=none&status=active', 1)).toEqual([]);
      const newest = await walk('type=none&status=locked', 1);
      expect(newest).toEqual(['o-1']);
    } finally {
      await setStatus('o-1', 'active');
    }
  });

  it('pages the admins alone in every order, as their roles are now', async () => {
    const admins = maries.filter((u) => u.admin === true);
    const portalAdmin = await t.ctx.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', ADMIN.email)
      .executeTakeFirstOrThrow();
    expect(await walk('q=durand%20marie&role=admin', 2)).toEqual(byId(idsOf(admins)));
    // Newest first: the portal's own admin, then the Maries of one instant by id, descending.
    expect(await walk('role=admin', 2)).toEqual([
      portalAdmin.id,
      ...[...byId(idsOf(admins))].reverse(),
    ]);
    const byEmail = [...admins].sort((a, b) => (a.email < b.email ? -1 : 1));
    expect(await walk('q=marie.durand.&role=admin', 2)).toEqual(idsOf(byEmail));
    // With a status, checked on the admins' rows (users/repository.ts), in each order.
    const locked = (u: SearchUser) => u.status === 'locked';
    expect(admins.filter(locked).length).toBeGreaterThan(0);
    expect(admins.filter((u) => !locked(u)).length).toBeGreaterThan(0);
    expect(await walk('q=durand%20marie&role=admin&status=locked', 1)).toEqual(
      byId(idsOf(admins.filter(locked))),
    );
    expect(await walk('role=admin&status=locked', 1)).toEqual(
      [...byId(idsOf(admins.filter(locked)))].reverse(),
    );
    expect(await walk('q=marie.durand.&role=admin&status=active', 1)).toEqual(
      idsOf(byEmail.filter((u) => !locked(u))),
    );

    // A promotion and a demotion show at once (the database keeps the admins' indexes).
    const promoted = maries.find((u) => u.admin !== true);
    if (!promoted) throw new Error('every Marie is an admin');
    const setRoles = (id: string, roles: string) =>
      t.ctx.db.updateTable('users').set({ roles }).where('id', '=', id).execute();
    await setRoles(promoted.id, '["admin"]');
    await setRoles(admins[0]!.id, '[]');
    try {
      expect(await walk('q=durand%20marie&role=admin', 2)).toEqual(
        byId([promoted.id, ...idsOf(admins.slice(1))]),
      );
    } finally {
      await setRoles(promoted.id, '[]');
      await setRoles(admins[0]!.id, '["admin"]');
    }
  });

  it('lists every account newest first, ties in one instant by id, with filters', async () => {
    const all = (await page('pageSize=100')).items.map((u) => u.id);
    expect(await walk('q=', 4)).toEqual(all);
    expect(all.indexOf('o-3')).toBeLessThan(all.indexOf('o-2'));
    expect(all.indexOf('o-2')).toBeLessThan(all.indexOf('o-1'));
    const tied = all.filter((id) => maries.some((m) => m.id === id) || id === 'o-1');
    expect(tied).toEqual([...byId([...idsOf(maries), 'o-1'])].reverse());
    const locked = await walk('status=locked', 2);
    expect(locked).toEqual([...byId(idsOf(maries.filter((u) => u.status === 'locked')))].reverse());
  });

  it('finds by e-mail prefix (with @, or a text that is nobody’s name), by e-mail', async () => {
    const tens = maries.filter((u) => u.email.startsWith('marie.durand.1'));
    const emails = (await walk('q=marie.durand.1', 3)).map(
      (id) => maries.find((u) => u.id === id)?.email,
    );
    expect(emails).toEqual(tens.map((u) => u.email).sort());
    expect(await walk('q=Marie.Durand.12%40', 3)).toEqual([maries[12]!.id]);
  });

  it('finds the accounts of a phone number, by id, a page at a time', async () => {
    expect(await walk('q=06%2011%2011%2011%2011', 3)).toEqual(byId(idsOf(maries.slice(0, 7))));
    expect(await walk('q=%2B33611111111&status=locked', 3)).toEqual(
      byId(idsOf(maries.slice(0, 7).filter((u) => u.status === 'locked'))),
    );
  });

  it('finds a name without its accents or letter case', async () => {
    for (const q of ['lefevre', 'LEFÈVRE', 'lefevre elo', 'Lefèvre Élodie']) {
      expect((await page(`q=${encodeURIComponent(q)}`)).items.map((u) => u.id)).toEqual(['o-3']);
    }
  });

  it('refuses a cursor it did not give for this search, with a translated message', async () => {
    const durand = (await page('q=durand&pageSize=2')).nextCursor;
    const list = (await page('pageSize=2')).nextCursor;
    expect(durand).toBeTruthy();
    expect(list).toBeTruthy();
    const refused = async (query: string, cursor: string, language = 'en') => {
      const response = await admin.get(
        `/api/admin/users?${query}&cursor=${encodeURIComponent(cursor)}`,
        { 'accept-language': language },
      );
      expect(response.statusCode).toBe(400);
      return response.json<{ code: string; message: string }>();
    };
    expect(await refused('q=durand', 'bad')).toEqual(
      expect.objectContaining({
        code: 'invalid_cursor',
        message: 'This page of results is no longer valid. Search again.',
      }),
    );
    expect((await refused('q=durand', 'bad', 'fr')).message).toBe(
      'Cette page de résultats n’est plus valable. Relancez la recherche.',
    );
    // Another search's cursor: another name, the list, a name's cursor for the list.
    expect((await refused('q=dupont', durand ?? '')).code).toBe('invalid_cursor');
    expect((await refused('q=durand', list ?? '')).code).toBe('invalid_cursor');
    expect((await refused('q=', durand ?? '')).code).toBe('invalid_cursor');
    // Well-formed base64url of something else.
    const forged = Buffer.from(JSON.stringify(['name', 1, 'x'])).toString('base64url');
    expect((await refused('q=durand', forged)).code).toBe('invalid_cursor');
  });
});
