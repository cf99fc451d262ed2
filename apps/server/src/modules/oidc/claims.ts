import { DEFAULT_COUNTRY } from '@hygie/domain';
import type { UserRow } from '../../db/schema.js';

/** The scopes platforms may ask for. */
export const SCOPES = [
  'openid',
  'offline_access',
  'email',
  'phone',
  'profile',
  'address',
  'health',
];

/** Which claims each scope releases (the provider masks everything else). */
export const SCOPE_CLAIMS = {
  // How and when the user authenticated: in every ID token (docs/oidc.md).
  openid: ['sub', 'acr', 'amr', 'auth_time'],
  email: ['email', 'email_verified'],
  phone: ['phone_number', 'phone_number_verified'],
  profile: ['given_name', 'family_name', 'birthdate', 'gender', 'profile_type'],
  address: ['address'],
  health: ['ins', 'ins_oid', 'ins_status', 'professional_id', 'professional_id_type'],
} as const;

/**
 * OpenID `birthdate` from a stored date whose unknown day or month is `00`: a full date when it
 * is complete, else the year alone (the format OpenID allows) — never an invented day or month.
 */
export function birthdateClaim(stored: string | null): string | undefined {
  const match = stored ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(stored) : null;
  if (!match) return undefined;
  const [, year, month, day] = match;
  if (month === '00' || day === '00') return year === '0000' ? undefined : year;
  return stored ?? undefined;
}

/**
 * How far a patient's INS can be trusted, in the identity-vigilance (RNIV) statuses: `provisional`
 * (declared, neither retrieved from the INSi teleservice nor checked against an identity
 * document), `retrieved`, `validated`, `qualified`. The portal neither calls INSi nor checks
 * patients' documents, so an INS here is declared: a platform qualifies it before referencing
 * health data under it (docs/oidc.md).
 */
export const DECLARED_INS_STATUS = 'provisional';

export type Claims = Record<string, unknown> & { sub: string };

/** The OpenID `address` claim (OpenID Connect Core §5.1.1). */
export interface AddressClaim {
  /** The whole address as on a mailing label, one line per part (the country when not France). */
  formatted: string;
  /** The street line and its complement, separated by a newline. */
  street_address: string;
  postal_code: string;
  locality: string;
  /** ISO 3166-1 alpha-2 code (`FR`). */
  country: string;
}

type AddressColumns = Pick<
  UserRow,
  'address_line1' | 'address_line2' | 'address_postal_code' | 'address_city' | 'address_country'
>;

/** The `address` claim of a stored postal address; undefined when there is none. */
export function addressClaim(user: AddressColumns): AddressClaim | undefined {
  const { address_line1: line1, address_postal_code: postalCode, address_city: city } = user;
  if (!line1 || !postalCode || !city) return undefined;
  const country = user.address_country ?? DEFAULT_COUNTRY;
  const street = [line1, user.address_line2].filter((line) => line).join('\n');
  const locality = `${postalCode} ${city}`;
  return {
    formatted: [street, locality, ...(country === DEFAULT_COUNTRY ? [] : [country])].join('\n'),
    street_address: street,
    postal_code: postalCode,
    locality: city,
    country,
  };
}

/** Every claim of a user; the provider keeps the ones the granted scopes release. */
export function claimsOf(
  user: Pick<
    UserRow,
    | 'id'
    | 'email'
    | 'email_verified_at'
    | 'phone'
    | 'phone_verified_at'
    | 'first_name'
    | 'last_name'
    | 'birth_date'
    | 'sex'
    | 'profile'
    | 'ins'
    | 'ins_oid'
    | 'professional_id'
    | 'professional_id_type'
    | keyof AddressColumns
  >,
): Claims {
  const claims: Claims = {
    sub: user.id,
    email: user.email,
    email_verified: user.email_verified_at !== null,
  };
  if (user.phone) {
    claims.phone_number = user.phone;
    claims.phone_number_verified = user.phone_verified_at !== null;
  }
  const address = addressClaim(user);
  if (address) claims.address = address;
  // Absent values are left out rather than sent as null (OpenID Connect Core §5.3.2).
  // `gender` is the civil-status sex (the INS trait platforms match identities on), not the
  // self-declared gender of the profile, which is never released (docs/domain.md).
  const optional: Record<string, string | null | undefined> = {
    given_name: user.first_name,
    family_name: user.last_name,
    birthdate: birthdateClaim(user.birth_date),
    gender: user.sex,
    profile_type: user.profile,
  };
  if (user.profile === 'patient') {
    optional.ins = user.ins;
    optional.ins_oid = user.ins ? user.ins_oid : null;
    optional.ins_status = user.ins ? DECLARED_INS_STATUS : null;
  } else if (user.profile === 'professional') {
    optional.professional_id = user.professional_id;
    optional.professional_id_type = user.professional_id ? user.professional_id_type : null;
  }
  for (const [name, value] of Object.entries(optional)) {
    if (value !== null && value !== undefined && value !== '') claims[name] = value;
  }
  return claims;
}
