import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '../../db/connection.js';
import { migrateToLatest } from '../../db/migrate.js';
import { up as backfillInsOids } from '../../db/migrations/0010-ins-oid.js';
import { AppError } from '../../lib/app-error.js';
import { DIALECTS, openTestDatabase, TestClock } from '../../test/helpers.js';
import { findUserById } from './repository.js';
import { assertEmailAvailable, createUser } from './service.js';

describe.each(DIALECTS)('creating a user on %s', (dialect) => {
  let database: DbHandle;
  let drop: () => Promise<void>;
  const clock = new TestClock(1_800_000_000_000);
  beforeAll(async () => {
    ({ handle: database, drop } = await openTestDatabase(dialect));
    await migrateToLatest(database);
  });
  afterAll(async () => {
    await database.close();
    await drop();
  });

  it('fills the row: search key, verification times, roles, and empty fields left out', async () => {
    const id = await createUser({ clock }, database.db, {
      email: 'zoe@hygie.test',
      emailVerified: true,
      phone: '+33612345678',
      passwordHash: 'hash',
      profile: 'professional',
      status: 'pending_validation',
      roles: ['admin'],
      language: 'en',
      firstName: 'Zoé',
      lastName: 'Durand',
      professionalId: { type: 'RPPS', value: '10000001726' },
    });
    expect(await findUserById(database.db, id)).toMatchObject({
      email: 'zoe@hygie.test',
      email_verified_at: clock.now(),
      phone: '+33612345678',
      phone_verified_at: null,
      password_hash: 'hash',
      password_changed_at: clock.now(),
      must_create_password: 0,
      roles: '["admin"]',
      search_name: 'durand zoe',
      professional_id_type: 'RPPS',
      professional_id: '10000001726',
      ins: null,
      cgu_version: null,
      created_at: clock.now(),
    });
  });

  it('stores a patient’s INS with its OID; the migration gives one to INS stored before', async () => {
    const patient = (email: string, ins: string) =>
      createUser({ clock }, database.db, {
        email,
        passwordHash: 'hash',
        profile: 'patient',
        status: 'active',
        language: 'fr',
        ins,
      });
    const nir = await patient('nir@hygie.test', '295109912611193');
    const nia = await patient('nia@hygie.test', '892017512300459');
    expect(await findUserById(database.db, nir)).toMatchObject({
      ins_oid: '1.2.250.1.213.1.4.8',
    });
    expect(await findUserById(database.db, nia)).toMatchObject({
      ins_oid: '1.2.250.1.213.1.4.9',
    });
    // Rows written before the OID was (and before the INS was sealed): the migration reads it
    // from the number.
    await database.db.updateTable('users').set({ ins_oid: null }).execute();
    for (const [email, ins] of [
      ['nir@hygie.test', '295109912611193'],
      ['nia@hygie.test', '892017512300459'],
    ] as const) {
      await database.db.updateTable('users').set({ ins }).where('email', '=', email).execute();
    }
    await backfillInsOids(database.db);
    const rows = await database.db
      .selectFrom('users')
      .select(['email', 'ins_oid'])
      .where('email', 'in', ['nir@hygie.test', 'nia@hygie.test', 'zoe@hygie.test'])
      .orderBy('email')
      .execute();
    expect(rows).toEqual([
      { email: 'nia@hygie.test', ins_oid: '1.2.250.1.213.1.4.9' },
      { email: 'nir@hygie.test', ins_oid: '1.2.250.1.213.1.4.8' },
      { email: 'zoe@hygie.test', ins_oid: null },
    ]);
  });

  it('leaves an invitation without password and its change time', async () => {
    const id = await createUser({ clock }, database.db, {
      email: 'invited@hygie.test',
      passwordHash: null,
      mustCreatePassword: true,
      profile: null,
      status: 'active',
      language: 'fr',
    });
    expect(await findUserById(database.db, id)).toMatchObject({
      password_hash: null,
      password_changed_at: null,
      must_create_password: 1,
      email_verified_at: null,
      roles: '[]',
    });
  });

  it('answers email_already_used for a taken e-mail, before and at the insert', async () => {
    await expect(assertEmailAvailable({ db: database.db }, 'zoe@hygie.test')).rejects.toEqual(
      new AppError('email_already_used'),
    );
    await expect(
      assertEmailAvailable({ db: database.db }, 'free@hygie.test'),
    ).resolves.toBeUndefined();
    const lostRace = createUser({ clock }, database.db, {
      email: 'zoe@hygie.test',
      passwordHash: null,
      profile: null,
      status: 'active',
      language: 'fr',
    });
    await expect(lostRace).rejects.toMatchObject({ code: 'email_already_used' });
  });

  it('leaves other unique violations to the caller, who knows the field', async () => {
    const taken = createUser({ clock }, database.db, {
      email: 'other@hygie.test',
      passwordHash: null,
      profile: 'professional',
      status: 'active',
      language: 'fr',
      professionalId: { type: 'RPPS', value: '10000001726' },
    });
    await expect(taken).rejects.not.toBeInstanceOf(AppError);
  });
});
