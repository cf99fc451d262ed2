import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../lib/ids.js';
import { insertUser } from '../modules/users/repository.js';
import { DIALECTS, openTestDatabase } from '../test/helpers.js';
import type { DbHandle } from './connection.js';
import { openDatabase } from './connection.js';
import { isDatabaseUnavailable, isUniqueViolation } from './errors.js';
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
    expect(isUniqueViolation(err, 'users_ins_index_uq')).toBe(false);
  });

  it('recognises a taken INS', async () => {
    const err = await insertError(database, { ins: '180057512345612' });
    expect(isUniqueViolation(err, 'users_ins_index_uq')).toBe(true);
    expect(isUniqueViolation(err, 'users_email_uq')).toBe(false);
  });

  it('recognises a taken professional identifier (two columns)', async () => {
    const err = await insertError(database, {
      professional_id_type: 'RPPS',
      professional_id: '10000000001',
    });
    expect(isUniqueViolation(err, 'users_professional_id_value_uq')).toBe(true);
    expect(isUniqueViolation(err, 'users_ins_index_uq')).toBe(false);
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

/** The error `action` rejects with. */
function failureOf(action: () => Promise<unknown>): Promise<unknown> {
  return action().then(
    () => null,
    (error: unknown) => error,
  );
}

describe('isDatabaseUnavailable, on the errors the drivers really raise', () => {
  it('SQLite: a file another connection keeps locked past the busy time-out', async () => {
    const { handle, reopen, drop } = await openTestDatabase('sqlite');
    const other = reopen();
    try {
      await migrateToLatest(handle);
      await sql`pragma busy_timeout = 0`.execute(other.db);
      const held = handle.db.transaction().execute(async (trx) => {
        await insertUser(trx, user({}));
        const err = await failureOf(() => insertUser(other.db, user({})));
        expect(String(err)).toMatch(/database is locked/);
        expect(isDatabaseUnavailable(err)).toBe(true);
      });
      await held;
    } finally {
      await other.close();
      await handle.close();
      await drop();
    }
  });

  it.runIf(DIALECTS.includes('postgres'))(
    'PostgreSQL: nothing listening, a statement past its time-out, a killed connection',
    async () => {
      const { handle, reopen, drop } = await openTestDatabase('postgres');
      try {
        const refused = openDatabase({
          kind: 'postgres',
          url: 'postgres://u@127.0.0.1:1/x',
          poolMax: 1,
        });
        const down = await failureOf(() => refused.ping());
        await refused.close();
        expect(isDatabaseUnavailable(down)).toBe(true);

        const slow = await failureOf(() =>
          handle.db.connection().execute(async (conn) => {
            await sql`set statement_timeout = 50`.execute(conn);
            await sql`select pg_sleep(1)`.execute(conn);
          }),
        );
        expect(slow).toMatchObject({ code: '57014' });
        expect(isDatabaseUnavailable(slow)).toBe(true);

        const victim = reopen();
        const killed = await failureOf(() =>
          victim.db.connection().execute(async (conn) => {
            await sql`select pg_terminate_backend(pg_backend_pid())`.execute(conn);
          }),
        );
        await victim.close().catch(() => {});
        expect(isDatabaseUnavailable(killed)).toBe(true);
      } finally {
        await handle.close();
        await drop();
      }
    },
  );

  it('is false for what a request got wrong, or a bug', async () => {
    const { handle, drop } = await openTestDatabase('sqlite');
    try {
      await migrateToLatest(handle);
      await insertUser(handle.db, user({ email: 'once@hygie.test' }));
      const taken = await failureOf(() =>
        insertUser(handle.db, user({ email: 'once@hygie.test' })),
      );
      const syntax = await failureOf(() => sql`selec 1`.execute(handle.db));
      for (const err of [taken, syntax, new Error('boom'), null, { code: 'ECONNREFUSED' }]) {
        expect(isDatabaseUnavailable(err)).toBe(false);
      }
    } finally {
      await handle.close();
      await drop();
    }
  });
});
