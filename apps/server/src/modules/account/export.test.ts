import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MyData } from '@hygie/domain';
import type { Database } from '../../db/schema.js';
import type { TestApp } from '../../test/helpers.js';
import {
  ADMIN,
  createTestApp,
  createUser,
  DIALECTS,
  messagesTo,
  signIn,
  TestClient,
} from '../../test/helpers.js';
import { issueLink } from '../links/service.js';
import { findUserById } from '../users/service.js';
import { upsertArtefact } from '../oidc/repository.js';

// "My data" (issue #15): the signed-in person downloads everything the portal holds about them —
// and never a secret. Every table of the schema is either exported (column by column, each
// column exported or left out for a stated reason) or said to hold no personal data: a table or
// column added later fails here until someone decides.

/** How a column of an exported table is treated: exported, or left out (and why). */
type ColumnRule = 'exported' | { secret: string } | { left: string };

type TableRule =
  /** Rows about the person, found by `by` (the user's id, or their e-mail for messages). */
  | {
      section: keyof MyData;
      by: { column: string; value: 'id' | 'email' };
      columns: Record<string, ColumnRule>;
    }
  /** Exported in a summarised form (checked by its own assertions below). */
  | { section: keyof MyData; summarised: string }
  | { noPersonalData: string };

const exported = 'exported' as const;
const TOKEN_HASH = { secret: 'the hash of a cookie or link token' };

/** Every table of the schema: a table missing here fails to type-check, one missing in the DB fails the test. */
const COVERAGE: Record<keyof Database, TableRule> = {
  users: {
    section: 'account',
    by: { column: 'id', value: 'id' },
    columns: {
      id: exported,
      type: exported,
      email: exported,
      email_verified_at: exported,
      phone: exported,
      phone_verified_at: exported,
      password_hash: { secret: 'the password hash (its presence is `passwordSet`)' },
      password_changed_at: exported,
      must_create_password: exported,
      profile: exported,
      status: exported,
      roles: exported,
      first_name: exported,
      last_name: exported,
      birth_name: exported,
      language: exported,
      created_at: exported,
      updated_at: exported,
      birth_date: exported,
      birth_place_insee: exported,
      sex: exported,
      ins: exported,
      ins_oid: exported,
      first_name_used: exported,
      last_name_used: exported,
      professional_id_type: exported,
      professional_id: exported,
      job: exported,
      specialty: exported,
      cgu_version: exported,
      pending_email: exported,
      pending_phone: exported,
      search_name: { left: 'a lower-case search key derived from the names exported' },
      category: exported,
      gender: exported,
      address_line1: exported,
      address_line2: exported,
      address_postal_code: exported,
      address_city: exported,
      address_country: exported,
      parent_ins: exported,
      ins_index: { secret: 'the INS’s blind index (a keyed HMAC; the INS itself is exported)' },
      totp_secret: { secret: 'the authenticator app’s secret (never shown again after enrolment)' },
      totp_enabled_at: exported,
      totp_last_step: { left: 'the time step of the last accepted code, kept to refuse a replay' },
      recovery_codes_left: exported,
      version: { left: 'a change counter the database raises (the session check’s cache key)' },
    },
  },
  sessions: {
    section: 'sessions',
    by: { column: 'user_id', value: 'id' },
    columns: {
      id: exported,
      token_hash: TOKEN_HASH,
      user_id: exported,
      stage: exported,
      created_at: exported,
      last_seen_at: exported,
      idle_expires_at: exported,
      absolute_expires_at: exported,
      ip: exported,
      user_agent: exported,
      mfa_verified_at: exported,
      trusted_device_id: exported,
      reauthenticated_at: exported,
      amr: exported,
      upstream_acr: exported,
      upstream_provider: {
        left: 'the amr says a session was opened through a provider (ext); which ones, the identity links',
      },
      upstream_id_token: {
        secret: "the provider's ID token, sealed: a credential the logout replays as id_token_hint",
      },
    },
  },
  trusted_devices: {
    section: 'trustedDevices',
    by: { column: 'user_id', value: 'id' },
    columns: {
      id: exported,
      user_id: exported,
      token_hash: TOKEN_HASH,
      user_agent: exported,
      ip: exported,
      created_at: exported,
      last_used_at: exported,
      expires_at: exported,
    },
  },
  known_browsers: {
    section: 'knownBrowsers',
    by: { column: 'user_id', value: 'id' },
    columns: {
      user_id: exported,
      token_hash: { secret: "the hash of the browser's cookie" },
      created_at: exported,
      last_seen_at: exported,
    },
  },
  identity_links: {
    section: 'identityLinks',
    by: { column: 'user_id', value: 'id' },
    columns: {
      provider: exported,
      subject: exported,
      user_id: exported,
      created_at: exported,
      last_used_at: exported,
    },
  },
  one_time_codes: {
    section: 'codes',
    by: { column: 'user_id', value: 'id' },
    columns: {
      id: exported,
      user_id: exported,
      purpose: exported,
      destination: exported,
      code_hash: { secret: 'the code, hashed' },
      attempts: exported,
      created_at: exported,
      expires_at: exported,
      consumed_at: exported,
      superseded_at: exported,
    },
  },
  link_tokens: {
    section: 'links',
    by: { column: 'user_id', value: 'id' },
    columns: {
      id: exported,
      user_id: exported,
      purpose: exported,
      token_hash: TOKEN_HASH,
      created_at: exported,
      expires_at: exported,
      consumed_at: exported,
    },
  },
  consents: {
    section: 'termsAccepted',
    by: { column: 'user_id', value: 'id' },
    columns: {
      id: exported,
      user_id: exported,
      version: exported,
      accepted_at: exported,
      ip: exported,
      text_hash: exported,
      language: exported,
    },
  },
  credentials: {
    section: 'keys',
    by: { column: 'user_id', value: 'id' },
    columns: {
      id: exported,
      user_id: exported,
      kind: exported,
      credential_id: {
        left: 'the identifier the authenticator chose: key material, meaningless to the person',
      },
      public_key: { left: 'public key material: no information about the person' },
      counter: { left: "the authenticator's signature counter (anti-cloning bookkeeping)" },
      transports: exported,
      device_name: exported,
      user_verifying: exported,
      created_at: exported,
      last_used_at: exported,
      revoked_at: exported,
    },
  },
  platform_access: {
    section: 'platformAccess',
    by: { column: 'user_id', value: 'id' },
    columns: {
      user_id: exported,
      platform_id: exported,
      status: exported,
      changed_by: { left: "an admin's id when an admin changed it (the activity says so)" },
      changed_at: exported,
    },
  },
  audit_events: {
    section: 'activity',
    by: { column: 'target_id', value: 'id' },
    columns: {
      id: exported,
      at: exported,
      actor_id: { left: 'who acted, as `by` (you, administrator, system): never an admin id' },
      action: exported,
      target_id: exported,
      ip: exported,
      details: exported,
      request_id: exported,
      user_agent: exported,
    },
  },
  outbox: {
    section: 'messages',
    by: { column: 'recipient', value: 'email' },
    columns: {
      id: exported,
      channel: exported,
      recipient: exported,
      template: exported,
      language: exported,
      brand: exported,
      params: { secret: 'the codes and links the messages carried' },
      status: exported,
      attempts: { left: 'delivery bookkeeping' },
      next_attempt_at: { left: 'delivery bookkeeping' },
      locked_until: { left: 'delivery bookkeeping' },
      lease_owner: { left: 'delivery bookkeeping' },
      expires_at: { left: 'delivery bookkeeping' },
      last_error: { left: "the mail or SMS provider's answer" },
      created_at: exported,
      sent_at: exported,
    },
  },
  recovery_codes: {
    section: 'account',
    summarised:
      'how many recovery codes are left (recoveryCodesRemaining, recovery-codes.test.ts); the codes are never kept, their hashes are secrets',
  },
  oidc_store: {
    section: 'platformConsents',
    summarised:
      'grants as platformConsents; tokens, codes and provider sessions are secrets (their id is the token)',
  },
  throttles: {
    noPersonalData:
      'short-lived counters keyed by an account id or a hash of an address or name typed',
  },
  terms_texts: {
    noPersonalData: 'the published terms of use, the same for everyone (an acceptance names one)',
  },
  settings: {
    noPersonalData: "the service's settings; who changed one is in the audit trail",
  },
  platforms: { noPersonalData: 'the platforms registered by admins' },
  biometric_challenges: {
    noPersonalData: 'a random challenge living a few minutes, deleted with the account',
  },
};

const PERSON = {
  email: 'export@hygie.test',
  password: 'Export-Passw0rd-1',
  phone: '+33657001122',
  ins: '285047512345678',
};

/** The ways a stored value may appear in the export: as is, as an ISO time, as a display date. */
function forms(value: unknown): string[] {
  // A time (epoch ms; PostgreSQL may give a bigint as text) appears as an ISO string.
  if (typeof value === 'number' || (typeof value === 'string' && /^\d+$/.test(value))) {
    const n = Number(value);
    return n >= 1e12 && n < 1e13 ? [String(value), new Date(n).toISOString()] : [String(value)];
  }
  if (typeof value !== 'string') return [JSON.stringify(value)];
  const date = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (date) return [value, `${date[3]}/${date[2]}/${date[1]}`];
  if (value.startsWith('{') || value.startsWith('[')) {
    // A JSON column (roles, transports, details): every value it holds.
    const flat: string[] = [];
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === 'object') Object.values(v).forEach(walk);
      else if (v !== null && v !== undefined) flat.push(JSON.stringify(v));
    };
    walk(JSON.parse(value));
    return flat.length > 0 ? flat : [value];
  }
  // Space-separated method references (`pwd otp`): each of them.
  return value.includes(' ') && !/\s\S+\s/.test(value) ? value.split(' ') : [value];
}

describe.each(DIALECTS)('my data export on %s', (dialect) => {
  let t: TestApp;
  let person: TestClient;
  let userId: string;
  let exportText: string;
  let data: MyData;
  /** Secret values held about the person: none may appear in the export. */
  const secrets: string[] = [];

  beforeAll(async () => {
    t = await createTestApp(dialect);
    // No terms accepted yet: the sign-in asks for them (a consent row).
    userId = await createUser(t, { ...PERSON, cguVersion: null });
    await t.ctx.db
      .updateTable('users')
      .set({
        pending_email: 'next@hygie.test',
        first_name_used: 'Jeannette',
        // Every person field holds a value, so that the coverage test finds each in the file.
        category: 'C',
        gender: 'undisclosed',
        address_line1: '8 quai des Brumes',
        address_line2: 'Escalier 3',
        address_postal_code: '69002',
        address_city: 'Lyon',
        address_country: 'FR',
        parent_ins: '190027505604567',
      })
      .where('id', '=', userId)
      .execute();
    person = new TestClient(t.app);
    expect(
      (await signIn(t, person, PERSON.email, PERSON.password, { trustDevice: true })).statusCode,
    ).toBe(200);
    secrets.push(...[...person.cookies.values()].filter((v) => v.length >= 20));
    // The codes and links the messages carried (the outbox keeps them until retention).
    for (const message of await messagesTo(t, PERSON.email)) {
      const { code, link } = message.params;
      if (code) secrets.push(code);
      if (link) secrets.push(new URL(link).searchParams.get('token') ?? link);
    }
    expect(secrets.some((s) => /^\d{6}$/.test(s))).toBe(true);
    // A link in flight, a passkey (and a revoked one), a platform opened and its grant, tokens.
    const now = t.clock.now();
    secrets.push(await issueLink(t.ctx, t.ctx.db, userId, 'password_reset', 3_600_000));
    await t.ctx.db
      .insertInto('identity_links')
      .values({
        provider: 'psc',
        subject: 'f:psc-subject-of-the-person',
        user_id: userId,
        created_at: t.clock.now() - 60_000,
        last_used_at: t.clock.now(),
      })
      .execute();
    const keys = [
      { id: 'key-live', revoked_at: null, device_name: 'Pixel of Jeanne' },
      { id: 'key-old', revoked_at: now, device_name: 'Old phone' },
    ];
    for (const key of keys) {
      await t.ctx.db
        .insertInto('credentials')
        .values({
          ...key,
          user_id: userId,
          kind: 'webauthn',
          credential_id: `credential-material-${key.id}`,
          public_key: `public-key-material-${key.id}`,
          counter: 7,
          transports: JSON.stringify(['internal', 'hybrid']),
          user_verifying: 1,
          created_at: now - 1000,
          last_used_at: now,
        })
        .execute();
    }
    await t.ctx.db
      .insertInto('platforms')
      .values({
        id: 'platform-export',
        client_id: 'export-client',
        client_secret_hash: null,
        name: 'Téléconsultation',
        description: null,
        url: 'https://tele.example',
        logo_url: null,
        redirect_uris: '[]',
        post_logout_redirect_uris: '[]',
        backchannel_logout_uri: null,
        access_policy: 'on_request',
        first_party: 0,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await t.ctx.db
      .insertInto('platform_access')
      .values({
        user_id: userId,
        platform_id: 'platform-export',
        status: 'enabled',
        changed_by: userId,
        changed_at: now,
      })
      .execute();
    const seconds = Math.floor(now / 1000);
    const artefact = (model: string, extra: object) => ({
      payload: JSON.stringify({ kind: model, accountId: userId, ...extra }),
      grant_id: 'grant-export',
      user_code: null,
      uid: null,
      account_id: userId,
      expires_at: now + 3_600_000,
    });
    await upsertArtefact(
      t.ctx.db,
      'grant-export',
      'Grant',
      artefact('Grant', {
        clientId: 'export-client',
        openid: { scope: 'openid email' },
        iat: seconds,
        exp: seconds + 3600,
      }),
    );
    const accessToken = 'AccessTokenValueThatMustStaySecret0123456789';
    await upsertArtefact(
      t.ctx.db,
      accessToken,
      'AccessToken',
      artefact('AccessToken', { clientId: 'export-client', jti: accessToken }),
    );
    secrets.push(accessToken);
    const hashes = await Promise.all([
      t.ctx.db.selectFrom('users').select('password_hash as h').where('id', '=', userId).execute(),
      t.ctx.db
        .selectFrom('sessions')
        .select('token_hash as h')
        .where('user_id', '=', userId)
        .execute(),
      t.ctx.db
        .selectFrom('trusted_devices')
        .select('token_hash as h')
        .where('user_id', '=', userId)
        .execute(),
      t.ctx.db
        .selectFrom('one_time_codes')
        .select('code_hash as h')
        .where('user_id', '=', userId)
        .execute(),
      t.ctx.db
        .selectFrom('link_tokens')
        .select('token_hash as h')
        .where('user_id', '=', userId)
        .execute(),
    ]);
    for (const rows of hashes) {
      expect(rows.length).toBeGreaterThan(0);
      for (const { h } of rows) if (h) secrets.push(h);
    }

    const res = await person.get('/api/me/export');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="hygie-data-${new Date(t.clock.now()).toISOString().slice(0, 10)}.json"`,
    );
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    exportText = res.body;
    data = res.json<MyData>();
  });
  afterAll(() => t.close());

  it('holds the person: identity, identifiers, channels and their states, terms, activity', () => {
    expect(data.format).toBe('hygie-my-data/1');
    expect(data.account).toMatchObject({
      id: userId,
      status: 'active',
      passwordSet: true,
      termsVersion: expect.any(String),
      birthDate: '1980-05-17',
      emailVerifiedAt: expect.any(String),
    });
    expect(data.profile).toMatchObject({
      email: PERSON.email,
      emailVerified: true,
      phone: PERSON.phone,
      phoneVerified: true,
      ins: PERSON.ins,
      firstName: 'Jeanne',
      firstNameUsed: 'Jeannette',
      pendingEmail: 'next@hygie.test',
      gender: 'undisclosed',
      address: {
        line1: '8 quai des Brumes',
        line2: 'Escalier 3',
        postalCode: '69002',
        city: 'Lyon',
        country: 'FR',
      },
      parentIns: '190027505604567',
    });
    expect(data.termsAccepted).toEqual([
      expect.objectContaining({ version: data.account.termsVersion, ip: '127.0.0.1' }),
    ]);
    expect(data.sessions).toHaveLength(1);
    expect(data.sessions[0]).toMatchObject({ stage: 'complete', methods: ['pwd', 'otp'] });
    expect(data.trustedDevices).toHaveLength(1);
    expect(data.keys.map((k) => [k.id, k.revokedAt === null])).toEqual(
      expect.arrayContaining([
        ['key-live', true],
        ['key-old', false],
      ]),
    );
    expect(data.keys[0]?.transports).toEqual(['internal', 'hybrid']);
    expect(data.platformAccess).toEqual([
      expect.objectContaining({ platform: 'Téléconsultation', status: 'enabled' }),
    ]);
    expect(data.platformConsents).toEqual([
      expect.objectContaining({ clientId: 'export-client', scopes: ['openid', 'email'] }),
    ]);
    expect(data.codes.map((c) => c.destination)).toContain(PERSON.email);
    expect(data.links.map((l) => l.purpose)).toContain('password_reset');
    expect(data.messages.map((m) => m.template)).toContain('mfa_code');
    const actions = data.activity.map((e) => e.action);
    expect(actions).toEqual(
      expect.arrayContaining(['login', 'trusted_device_added', 'data_exported']),
    );
    expect(data.activity.find((e) => e.action === 'login')).toMatchObject({
      by: 'you',
      ip: '127.0.0.1',
    });
  });

  it('holds no secret: no password hash, code, link, cookie or platform token, no key material', () => {
    expect(secrets.length).toBeGreaterThanOrEqual(8);
    for (const secret of secrets) expect(exportText).not.toContain(secret);
    expect(exportText).not.toContain('public-key-material');
    expect(exportText).not.toContain('credential-material');
    expect(exportText).not.toMatch(/argon2|scrypt|\$2[aby]\$/);
  });

  it('covers every table of the schema: each column exported or left out for a stated reason', async () => {
    // PostgreSQL: this test's schema only (other test files run theirs beside it).
    const { rows } = await sql<{ name: string | null }>`
      select ${t.dialect === 'postgres' ? sql`current_schema()` : sql`null`} as name
    `.execute(t.ctx.db);
    const schema = rows[0]?.name ?? undefined;
    const tables = (await t.ctx.db.introspection.getTables()).filter(
      (table) => schema === undefined || table.schema === schema,
    );
    const names = tables.map((table) => table.name).sort();
    expect(names).toEqual(Object.keys(COVERAGE).sort());
    const rules = new Map<string, TableRule>(Object.entries(COVERAGE));
    for (const table of tables) {
      const rule = rules.get(table.name);
      if (!rule || !('columns' in rule)) continue;
      expect(
        table.columns.map((c) => c.name).sort(),
        `every column of ${table.name} has a rule`,
      ).toEqual(Object.keys(rule.columns).sort());
    }
  });

  it("finds every exported column's value of the person's rows in the file, and no secret column's", async () => {
    const json = exportText;
    for (const [table, rule] of Object.entries(COVERAGE)) {
      if (!('columns' in rule)) continue;
      const value = rule.by.value === 'id' ? userId : PERSON.email;
      // The rows of any table, by a column named at run time (the coverage map).
      const { rows } = await sql<Record<string, unknown>>`
        select * from ${sql.table(table)} where ${sql.ref(rule.by.column)} = ${value}
      `.execute(t.ctx.db);
      expect(rows.length, `the person has rows in ${table}`).toBeGreaterThan(0);
      // The users row holds sealed values: the export shows them opened, as the repository does.
      const plain = table === 'users' ? await findUserById(t.ctx.db, userId) : undefined;
      for (const row of rows.map((r): Record<string, unknown> => ({ ...r, ...plain }))) {
        for (const [column, columnRule] of Object.entries(rule.columns)) {
          const stored = row[column];
          if (stored === null || stored === undefined) continue;
          const found = forms(stored).some((form) => json.includes(form));
          if (columnRule === 'exported') {
            expect(found, `${table}.${column} = ${forms(stored).join()} is in the export`).toBe(
              true,
            );
          } else if ('secret' in columnRule) {
            // The value as stored (a JSON column's parts may be harmless: the codes and links of
            // `params` are checked one by one above).
            const raw = typeof stored === 'string' ? stored : JSON.stringify(stored);
            expect(json.includes(raw), `${table}.${column} is not in the export`).toBe(false);
          }
        }
      }
    }
  });

  it('records the export as the person; an admin or a stranger appears without their address', async () => {
    const events = await t.ctx.db
      .selectFrom('audit_events')
      .selectAll()
      .where('action', '=', 'data_exported')
      .execute();
    expect(events).toEqual([
      expect.objectContaining({ actor_id: userId, target_id: userId, ip: '127.0.0.1' }),
    ]);

    const admin = new TestClient(t.app);
    expect((await signIn(t, admin, ADMIN.email, ADMIN.password)).statusCode).toBe(200);
    const sent = await admin.post(`/api/admin/users/${userId}/send-password-reset`);
    expect(sent.statusCode).toBe(200);
    // Someone else types a wrong password for the person: their address is not the person's.
    const stranger = await new TestClient(t.app).request({
      method: 'POST',
      url: '/api/login',
      payload: { username: PERSON.email, password: 'Not-Their-Passw0rd' },
      remoteAddress: '203.0.113.9',
    });
    expect(stranger.statusCode).toBe(401);
    const failed = await t.ctx.db
      .selectFrom('audit_events')
      .select('ip')
      .where('target_id', '=', userId)
      .where('action', '=', 'login_failed')
      .execute();
    expect(failed).toEqual([{ ip: '203.0.113.9' }]);
    const again = await new TestClient(t.app).get('/api/me/export');
    expect(again.statusCode).toBe(401);
    expect((await signIn(t, person, PERSON.email, PERSON.password)).statusCode).toBe(200);
    const mine = (await person.get('/api/me/export')).json<MyData>();
    const adminId = (await admin.get('/api/me')).json<{ id: string }>().id;
    expect(mine.activity.find((e) => e.action === 'password_reset_sent')).toMatchObject({
      by: 'administrator',
      ip: null,
      userAgent: null,
    });
    expect(mine.activity.find((e) => e.action === 'login_failed')).toMatchObject({
      by: 'system',
      ip: null,
      userAgent: null,
    });
    expect(JSON.stringify(mine)).not.toContain(adminId);
    expect(JSON.stringify(mine)).not.toContain('203.0.113.9');
  });
});
