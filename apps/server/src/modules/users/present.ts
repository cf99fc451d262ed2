import type { CurrentUser, Language } from '@hygie/domain';
import { asLanguage, DEFAULT_LANGUAGE } from '@hygie/domain';
import type { UserRow } from '../../db/schema.js';

type PresentedFields = Pick<
  UserRow,
  | 'id'
  | 'email'
  | 'email_verified_at'
  | 'phone'
  | 'phone_verified_at'
  | 'first_name'
  | 'last_name'
  | 'profile'
  | 'status'
  | 'roles'
  | 'language'
>;

/**
 * The presentations of frozen rows (the session check's cached users, sessions/repository.ts): a
 * frozen row cannot change, so its roles are parsed and its fields mapped once, not per request.
 */
const presentedRows = new WeakMap<PresentedFields, Omit<CurrentUser, 'session'>>();

function presentFields(user: PresentedFields): Omit<CurrentUser, 'session'> {
  const kept = presentedRows.get(user);
  if (kept) return kept;
  const language: Language = asLanguage(user.language) ?? DEFAULT_LANGUAGE;
  const fields = {
    type: 'person' as const,
    id: user.id,
    email: user.email,
    emailVerified: user.email_verified_at !== null,
    phone: user.phone,
    phoneVerified: user.phone_verified_at !== null,
    firstName: user.first_name,
    lastName: user.last_name,
    profile: user.profile,
    status: user.status,
    roles: parseRoles(user.roles),
    language,
  };
  if (Object.isFrozen(user)) presentedRows.set(user, Object.freeze(fields));
  return fields;
}

/** Maps a user row (snake_case) to the CurrentUser the API returns. */
export function presentUser(
  user: PresentedFields,
  session: { idleExpiresAt: number; absoluteExpiresAt: number },
): CurrentUser {
  const fields = presentFields(user);
  // Written field by field: a spread of the kept presentation copies it the slow way.
  return {
    type: fields.type,
    id: fields.id,
    email: fields.email,
    emailVerified: fields.emailVerified,
    phone: fields.phone,
    phoneVerified: fields.phoneVerified,
    firstName: fields.firstName,
    lastName: fields.lastName,
    profile: fields.profile,
    status: fields.status,
    roles: fields.roles,
    language: fields.language,
    session: {
      expiresAt: isoTime(Math.min(session.idleExpiresAt, session.absoluteExpiresAt)),
      absoluteExpiresAt: isoTime(session.absoluteExpiresAt),
    },
  };
}

/**
 * The ISO 8601 text of recent instants (a session's expiries: the absolute one never moves, the idle
 * one at most once a minute), kept: `toISOString` costs about half a microsecond, and `/api/me` writes
 * two at every call. Bounded: emptied when full.
 */
const isoTexts = new Map<number, string>();
const ISO_TEXTS_KEPT = 4096;

export function isoTime(ms: number): string {
  let text = isoTexts.get(ms);
  if (text === undefined) {
    text = new Date(ms).toISOString();
    if (isoTexts.size >= ISO_TEXTS_KEPT) isoTexts.clear();
    isoTexts.set(ms, text);
  }
  return text;
}

export function parseRoles(json: string): string[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((r): r is string => typeof r === 'string') : [];
  } catch {
    return [];
  }
}
