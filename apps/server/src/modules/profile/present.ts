import type { Profile } from '@hygie/domain';
import { asLanguage, DEFAULT_COUNTRY, DEFAULT_LANGUAGE } from '@hygie/domain';
import type { UserRow } from '../../db/schema.js';

/** Stored YYYY-MM-DD (00 for unknown parts) → the DD/MM/YYYY the UI shows. */
export function displayBirthDate(iso: string | null): string | null {
  const m = iso ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso) : null;
  return m ? `${m[3]}/${m[2]}/${m[1]}` : null;
}

/** The stored postal address, or null when it has none (its required parts are all set or none). */
function addressOf(user: UserRow): Profile['address'] {
  const { address_line1: line1, address_postal_code: postalCode, address_city: city } = user;
  if (line1 === null || postalCode === null || city === null) return null;
  return {
    line1,
    line2: user.address_line2,
    postalCode,
    city,
    country: user.address_country ?? DEFAULT_COUNTRY,
  };
}

/** The profile answer: every person field, camelCase. */
export function presentProfile(user: UserRow): Profile {
  return {
    id: user.id,
    email: user.email,
    emailVerified: user.email_verified_at !== null,
    phone: user.phone,
    phoneVerified: user.phone_verified_at !== null,
    profile: user.profile,
    status: user.status,
    firstName: user.first_name,
    lastName: user.last_name,
    birthName: user.birth_name,
    birthDate: displayBirthDate(user.birth_date),
    birthPlaceInsee: user.birth_place_insee,
    sex: user.sex,
    ins: user.ins,
    insOid: user.ins_oid,
    firstNameUsed: user.first_name_used,
    lastNameUsed: user.last_name_used,
    identifierType: user.professional_id_type,
    identifier: user.professional_id,
    job: user.job,
    specialty: user.specialty,
    category: user.category,
    address: addressOf(user),
    gender: user.gender,
    parentIns: user.parent_ins,
    language: asLanguage(user.language) ?? DEFAULT_LANGUAGE,
    pendingEmail: user.pending_email,
    pendingPhone: user.pending_phone,
  };
}
