import { sql } from 'kysely';
import type { UserRow } from '../db/schema.js';
import { searchKey } from '../modules/users/search-key.js';
import type { TestApp } from './helpers.js';

export interface SearchUser {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  phone?: string | null;
  status?: UserRow['status'];
  profile?: UserRow['profile'];
  admin?: boolean;
  createdAt: number;
}

/** Inserts accounts as they are stored (no password, no sealed field), 500 per statement. */
export async function insertSearchUsers(t: TestApp, users: SearchUser[]): Promise<void> {
  for (let from = 0; from < users.length; from += 500) {
    const rows = users
      .slice(from, from + 500)
      .map(
        (u) =>
          sql`(${u.id}, 'person', ${u.email}, ${u.phone ?? null}, 0, ${u.profile ?? null}, ${u.status ?? 'active'}, ${u.admin ? '["admin"]' : '[]'}, ${u.firstName}, ${u.lastName}, 'fr', ${u.createdAt}, ${u.createdAt}, ${searchKey(u.firstName, u.lastName)})`,
      );
    await sql`insert into users (id, type, email, phone, must_create_password, profile, status, roles, first_name, last_name, language, created_at, updated_at, search_name) values ${sql.join(rows)}`.execute(
      t.ctx.db,
    );
  }
}

const LAST = ['Martin', 'Bernard', 'Durand', 'Dubois', 'Thomas', 'Robert', 'Petit', 'Leroy'];
const FIRST = ['Jeanne', 'Louis', 'Léa', 'Hugo', 'Chloé', 'Lucas', 'Emma', 'Nathan'];
const STATUSES = ['active', 'active', 'active', 'active', 'locked', 'pending_validation'] as const;
const PROFILES = ['patient', 'patient', 'professional'] as const;

/**
 * Seeds `count` accounts for the admin search (the database left to analyse them or not): names
 * from a short list (so each is common) with a number ("Durand 12"), `seed<i>@search.test`,
 * phones shared by ten accounts, every status, profile and role (the admins and the accounts
 * without a profile one in fifty each); every ten share an instant.
 */
export async function seedSearchUsers(t: TestApp, count: number): Promise<void> {
  const users: SearchUser[] = [];
  for (let i = 0; i < count; i++) {
    users.push({
      id: `seed-${String(i).padStart(8, '0')}`,
      email: `seed${i}@search.test`,
      firstName: FIRST[i % FIRST.length] ?? 'Jeanne',
      lastName: `${LAST[Math.floor(i / 7) % LAST.length] ?? 'Martin'} ${i}`,
      phone: `+3360000${String(Math.floor(i / 10)).padStart(4, '0')}`,
      status: STATUSES[i % STATUSES.length],
      // One in fifty without a profile (the portal's staff, say): as rare as the admins.
      profile: i % 50 === 25 ? null : PROFILES[i % PROFILES.length],
      admin: i % 50 === 0,
      createdAt: 1_700_000_000_000 + Math.floor(i / 10),
    });
  }
  await insertSearchUsers(t, users);
}
