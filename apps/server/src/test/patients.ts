import { insKey } from '@hygie/domain';
import { expect } from 'vitest';
import type { Db } from '../db/connection.js';
import { SEALED_SETTINGS } from '../modules/settings/repository.js';
import { SEALED_USER_COLUMNS } from '../modules/users/repository.js';
import { createUser } from '../modules/users/service.js';
import type { TestApp } from './helpers.js';
import { TestClient } from './helpers.js';

// Patients and accounts holding sealed values, and what the users table holds under which data
// key: what the data key rotation tests write and scan.

export const PASSWORD = 'Sunny-Garden-42';
/** Sessions that outlast the tests' sign-ins (signIn moves the test clock 13 minutes each time). */
export const LONG_SESSIONS = {
  SESSION_IDLE_TIMEOUT: '2592000',
  SESSION_ABSOLUTE_TIMEOUT: '2592000',
};

/** A valid INS (NIR) whose order number is `order` (100–999). */
export function insNumber(order: number): string {
  const body = `2800175056${String(order).padStart(3, '0')}`;
  return `${body}${String(insKey(body)).padStart(2, '0')}`;
}

const LAST_NAMES = ['Bernard', 'Martin', 'Durand', 'Petit', 'Moreau', 'Laurent', 'Simon', 'Michel'];

export interface Patient {
  id: string;
  email: string;
  ins: string;
}

/** Registers `count` patients with an INS (under the keys in force) and verifies their contacts. */
export async function registerPatients(
  t: TestApp,
  count: number,
  prefix: string,
): Promise<Patient[]> {
  const terms = (await new TestClient(t.app).get('/api/cgu')).json<{
    version: string;
    hash: string;
  }>();
  const patients: Patient[] = [];
  for (let i = 0; i < count; i++) {
    const email = `${prefix}.${i}@hygie.test`;
    const ins = insNumber(100 + i);
    const registered = await new TestClient(t.app).post('/api/register', {
      type: 'patient',
      email,
      password: PASSWORD,
      passwordConfirmation: PASSWORD,
      acceptCgu: true,
      cguVersion: terms.version,
      cguHash: terms.hash,
      firstName: 'Léa',
      lastName: LAST_NAMES[i % LAST_NAMES.length] ?? 'Bernard',
      birthDate: '17/05/1980',
      birthPlaceInsee: '75056',
      sex: 'female',
      phone: '06 12 34 56 78',
      socialSecurityNumber: ins,
    });
    expect(registered.statusCode).toBe(201);
    await t.ctx.db
      .updateTable('users')
      .set({ email_verified_at: t.clock.now(), phone_verified_at: t.clock.now() })
      .where('email', '=', email)
      .execute();
    const row = await t.ctx.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    patients.push({ id: row.id, email, ins });
  }
  return patients;
}

/** Accounts without a password holding birth traits: the bulk a rotation goes through. */
export async function addAccounts(t: TestApp, count: number, prefix: string): Promise<void> {
  for (let i = 0; i < count; i++) {
    await createUser(t.ctx, t.ctx.db, {
      email: `${prefix}.${i}@hygie.test`,
      passwordHash: null,
      profile: 'patient',
      status: 'active',
      language: 'fr',
      firstName: 'Jean',
      lastName: 'Durand',
      birthDate: '1975-03-02',
      birthPlaceInsee: '69123',
      sex: 'male',
    });
  }
}

/**
 * Every sealed value of the database, as stored: the users' by account and column, the secret
 * settings' by name, the OIDC artefacts' payloads by row, the sessions' upstream ID tokens.
 */
export async function storedValues(db: Db): Promise<Map<string, string>> {
  const rows = await db
    .selectFrom('users')
    .select(['id', ...SEALED_USER_COLUMNS])
    .orderBy('id')
    .execute();
  const values = new Map<string, string>();
  for (const row of rows) {
    for (const column of SEALED_USER_COLUMNS) {
      const value = row[column];
      if (value !== null) values.set(`${row.id}.${column}`, value);
    }
  }
  const settings = await db
    .selectFrom('settings')
    .select(['key', 'value'])
    .where('key', 'in', SEALED_SETTINGS)
    .execute();
  for (const { key, value } of settings) {
    const parsed: unknown = JSON.parse(value);
    values.set(`settings.${key}`, typeof parsed === 'string' ? parsed : value);
  }
  const artefacts = await db.selectFrom('oidc_store').select(['id', 'payload']).execute();
  for (const { id, payload } of artefacts) values.set(`oidc_store.${id}`, payload);
  const sessions = await db
    .selectFrom('sessions')
    .select(['id', 'upstream_id_token'])
    .where('upstream_id_token', 'is not', null)
    .execute();
  for (const { id, upstream_id_token: token } of sessions) {
    if (token !== null) values.set(`sessions.${id}`, token);
  }
  return values;
}

/** How many stored values carry each key id. */
export async function keyIdsInUse(db: Db): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const value of (await storedValues(db)).values()) {
    const keyId = value.split('.')[1] ?? '';
    counts[keyId] = (counts[keyId] ?? 0) + 1;
  }
  return counts;
}
