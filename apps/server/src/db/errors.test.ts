import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../lib/ids.js';
import { insertUser } from '../modules/users/repository.js';
import { DIALECTS, openTestDatabase } from '../test/helpers.js';
import type { DbHandle } from './connection.js';
import { isUniqueViolation } from './errors.js';
import { migrateToLatest } from './migrate.js';
import type { NewUser } from './schema.js';

function user(fields: Partial<NewUser>): NewUser {
  return {
    id: newId(),
    type: 'person',
    email: `${newId()}@hygie.test`,
    must_create_password: 0,
    status: 'active',
    roles: '[]',
    language: 'fr',
    created_at: 0,
    updated_at: 0,
    ...fields,
  };
}

/** The error the database raises for `fields`, or null when the insert succeeds. */
async function insertError(database: DbHandle, fields: Partial<NewUser>): Promise<unknown> {
  try {
    await insertUser(database.db, user(fields));
    return null;
  } catch (err) {
    return err;
  }
}

describe.each(DIALECTS)('unique violations on %s', (dialect) => {
  let database: DbHandle;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ handle: database, drop } = await openTestDatabase(dialect));
    await migrateToLatest(database);
    await insertUser(
      database.db,
      user({
        id: 'taken-id',
        email: 'taken@hygie.test',
        ins: '180057512345612',
        professional_id_type: 'RPPS',
        professional_id: '10000000001',
      }),
    );
  });
  afterAll(async () => {
    await database.close();
    await drop();
  });

  it('recognises a taken e-mail, and names its index', async () => {
    const err = await insertError(database, { email: 'taken@hygie.test' });
    expect(isUniqueViolation(err)).toBe(true);
    expect(isUniqueViolation(err, 'users_email_uq')).toBe(true);
    expect(isUniqueViolation(err, 'users_ins_uq')).toBe(false);
  });

  it('recognises a taken INS', async () => {
    const err = await insertError(database, { ins: '180057512345612' });
    expect(isUniqueViolation(err, 'users_ins_uq')).toBe(true);
    expect(isUniqueViolation(err, 'users_email_uq')).toBe(false);
  });

  it('recognises a taken professional identifier (two columns)', async () => {
    const err = await insertError(database, {
      professional_id_type: 'RPPS',
      professional_id: '10000000001',
    });
    expect(isUniqueViolation(err, 'users_professional_id_uq')).toBe(true);
    expect(isUniqueViolation(err, 'users_ins_uq')).toBe(false);
  });

  it('recognises a taken primary key', async () => {
    expect(isUniqueViolation(await insertError(database, { id: 'taken-id' }))).toBe(true);
  });

  it('does not take another constraint failure for a unique violation', async () => {
    // A user without an e-mail (NOT NULL): the row type forbids it, so this insert is plain SQL.
    const { id, type, must_create_password, status, roles, language, created_at } = user({});
    const err = await sql`
      insert into users (id, type, must_create_password, status, roles, language, created_at, updated_at)
      values (${id}, ${type}, ${must_create_password}, ${status}, ${roles}, ${language}, ${created_at}, ${created_at})
    `
      .execute(database.db)
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(String(err)).toMatch(
      /NOT NULL constraint failed: users\.email|null value in column "email"/,
    );
    expect(isUniqueViolation(err)).toBe(false);
  });
});

describe('isUniqueViolation on values that are not driver errors', () => {
  it.each([null, undefined, 'UNIQUE constraint failed: users.email', new Error('UNIQUE'), {}])(
    'is false for %j',
    (value) => {
      expect(isUniqueViolation(value)).toBe(false);
    },
  );
});
