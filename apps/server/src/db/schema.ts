import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

// Times are epoch milliseconds (integer in SQLite, bigint in PostgreSQL) so that one schema and
// one set of queries serve both dialects; booleans are 0/1 integers for the same reason.

export interface UserTable {
  id: string;
  type: 'person';
  email: string; // normalised (trimmed, lower-case), unique
  email_verified_at: number | null;
  phone: string | null; // E.164
  phone_verified_at: number | null;
  password_hash: string | null;
  password_changed_at: number | null;
  must_create_password: number;
  profile: 'patient' | 'professional' | null;
  status: 'pending_validation' | 'active' | 'locked' | 'disabled';
  roles: string; // JSON array
  first_name: string | null;
  last_name: string | null;
  birth_name: string | null;
  language: 'fr' | 'en' | 'ar';
  created_at: number;
  updated_at: number;
  birth_date: string | null; // YYYY-MM-DD, 00 for an unknown day or month
  birth_place_insee: string | null;
  sex: 'male' | 'female' | 'unknown' | null;
  ins: string | null;
  ins_oid: string | null;
  first_name_used: string | null;
  last_name_used: string | null;
  professional_id_type: string | null;
  professional_id: string | null;
  job: string | null;
  specialty: string | null;
  cgu_version: string | null;
  pending_email: string | null;
  pending_phone: string | null;
  search_name: string | null;
  /** A professional's category, ANS TRE_R09 code (C civil, M military, E student). */
  category: 'C' | 'M' | 'E' | null;
  /** Self-declared gender (how to be addressed); `sex` is the civil-status INS trait. */
  gender: 'female' | 'male' | 'non_binary' | 'undisclosed' | null;
  /** Postal address: all null, or line1, postal code, city and country (ISO 3166-1 alpha-2) set. */
  address_line1: string | null;
  address_line2: string | null;
  address_postal_code: string | null;
  address_city: string | null;
  address_country: string | null;
  /** A patient's parent's INS ("ouvrant droit"), never the patient's own. */
  parent_ins: string | null;
  /** The authenticator app's secret (base32), sealed; set from enrolment until removed. */
  totp_secret: string | null;
  /** When the owner confirmed the app with a first code; null while the enrolment is pending. */
  totp_enabled_at: number | null;
  /** The RFC 6238 time step of the last accepted code (a code is accepted once). */
  totp_last_step: number | null;
  /** How many of the account's recovery codes are unused (kept with `recovery_codes`). */
  recovery_codes_left: Generated<number>;
  /** Raised by the database on every change of the row (migration 0023): the session check's cache key. */
  version: Generated<number>;
}

/**
 * The users table as stored: the health identifiers and birth traits are sealed (`v1.…`, see
 * security/field-crypto.ts) and `ins_index` is the INS's blind index. Only the users repository
 * sees this shape; it hands everyone else the plain `UserTable`.
 */
export type StoredUserTable = Omit<UserTable, SealedUserColumn> & {
  [K in SealedUserColumn]: string | null;
} & { ins_index: string | null };

/** The users columns stored sealed. */
export type SealedUserColumn =
  'ins' | 'ins_oid' | 'parent_ins' | 'birth_date' | 'birth_place_insee' | 'sex' | 'totp_secret';

/** One recovery code: its hash only (SHA-256 of the account id and the code); used once. */
export interface RecoveryCodeTable {
  user_id: string;
  code_hash: string;
  created_at: number;
  used_at: number | null;
}

export interface SessionTable {
  id: string;
  token_hash: string;
  user_id: string;
  stage: string;
  created_at: number;
  last_seen_at: number;
  idle_expires_at: number;
  absolute_expires_at: number;
  ip: string | null;
  user_agent: string | null;
  mfa_verified_at: number | null;
  trusted_device_id: string | null;
  /** The last step-up: the password re-entered by the signed-in user. */
  reauthenticated_at: number | null;
  /** How the user authenticated: RFC 8176 method references, space-separated (`pwd otp`). */
  amr: string | null;
  /** The upstream identity provider the session was opened through, if any (migration 0018). */
  upstream_provider: string | null;
  /** That provider's ID token, sealed with the data key: the logout's `id_token_hint`. */
  upstream_id_token: string | null;
  /**
   * The `acr` of the upstream sign-in (or step-up) the session holds, as `<provider>:<acr>`
   * (`psc:eidas3`); with `amr`, it decides the session's level (migration 0021).
   */
  upstream_acr: string | null;
}

export interface TrustedDeviceTable {
  id: string;
  user_id: string;
  token_hash: string;
  user_agent: string | null;
  ip: string | null;
  created_at: number;
  last_used_at: number;
  expires_at: number;
}

/** An account's link to an upstream identity provider's subject (migration 0016). */
export interface IdentityLinkTable {
  provider: string;
  subject: string;
  user_id: string;
  created_at: number;
  last_used_at: number | null;
}

/** A browser an account has signed in from: its cookie's hash, for the new-browser notice. */
export interface KnownBrowserTable {
  user_id: string;
  token_hash: string;
  created_at: number;
  last_seen_at: number;
}

export interface OneTimeCodeTable {
  id: string;
  user_id: string;
  purpose: string;
  destination: string;
  code_hash: string;
  attempts: number;
  created_at: number;
  expires_at: number;
  consumed_at: number | null;
  superseded_at: number | null;
}

export interface LinkTokenTable {
  id: string;
  user_id: string;
  purpose: string;
  token_hash: string;
  created_at: number;
  expires_at: number;
  consumed_at: number | null;
}

export interface ConsentTable {
  id: string;
  user_id: string;
  version: string;
  accepted_at: number;
  ip: string | null;
  /** The SHA-256 of the exact text accepted (terms_texts.hash); null before texts were stored. */
  text_hash: string | null;
  /** The language of that text. */
  language: string | null;
}

/** The terms of use of one version in one language: published once, never changed. */
export interface TermsTextTable {
  version: string;
  language: string;
  /** JSON: `[{ title, body }]`, in order. */
  sections: string;
  /** SHA-256 (hex) of the canonical form of version, language and sections. */
  hash: string;
  /** The date the version takes effect, YYYY-MM-DD. */
  effective_date: string;
  published_at: number;
  published_by: string | null;
}

export interface ThrottleTable {
  key: string;
  failures: number;
  window_start: number;
  blocked_until: number | null;
}

export interface SettingTable {
  key: string;
  value: string; // JSON
  updated_by: string | null;
  updated_at: number;
}

export interface AuditEventTable {
  id: string;
  at: number;
  actor_id: string | null;
  action: string;
  target_id: string | null;
  ip: string | null;
  details: string | null; // JSON
  /** The request that caused it (its X-Request-Id); null for jobs and the CLI. */
  request_id: string | null;
  user_agent: string | null;
}

export interface OutboxTable {
  id: string;
  /** `logout`: a back-channel logout notice to the platform whose client id is the recipient. */
  channel: 'email' | 'sms' | 'logout';
  recipient: string;
  template: string;
  language: 'fr' | 'en' | 'ar';
  brand: string;
  params: string; // JSON
  status: 'pending' | 'sent' | 'failed' | 'expired';
  attempts: number;
  next_attempt_at: number;
  /** The end of the current claim's lease (null when nobody holds the row). */
  locked_until: number | null;
  /** The current claim's token: every update after a claim names it. */
  lease_owner: string | null;
  /** A message carrying a code or a link is not sent after the code or link expired. */
  expires_at: number | null;
  last_error: string | null;
  created_at: number;
  sent_at: number | null;
}

export interface PlatformTable {
  id: string;
  client_id: string;
  client_secret_hash: string | null;
  name: string;
  description: string | null;
  url: string;
  logo_url: string | null;
  redirect_uris: string; // JSON array
  post_logout_redirect_uris: string; // JSON array
  /** Where the platform takes back-channel logout notices; null: none. */
  backchannel_logout_uri: string | null;
  access_policy: 'open' | 'on_request' | 'admin';
  first_party: number;
  /** The lowest level of assurance a sign-in needs: `low`, `substantial`, `high`; null: none. */
  minimum_level: string | null;
  created_at: number;
  updated_at: number;
}

export interface PlatformAccessTable {
  user_id: string;
  platform_id: string;
  status: 'enabled' | 'disabled' | 'requested';
  changed_by: string | null;
  changed_at: number;
}

export interface OidcStoreTable {
  id: string;
  model: string;
  payload: string; // JSON
  grant_id: string | null;
  user_code: string | null;
  uid: string | null;
  expires_at: number | null;
  consumed_at: number | null;
  account_id: string | null; // the user (accountId) of sessions, grants and tokens
}

export interface CredentialTable {
  id: string;
  user_id: string;
  kind: 'webauthn' | 'native';
  credential_id: string;
  public_key: string;
  counter: number;
  transports: string | null;
  device_name: string;
  user_verifying: number;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

export interface BiometricChallengeTable {
  id: string;
  user_id: string | null;
  purpose: 'webauthn_register' | 'webauthn_login' | 'native_enrol' | 'native_login';
  challenge: string;
  created_at: number;
  expires_at: number;
  consumed_at: number | null;
}

export interface Database {
  users: StoredUserTable;
  sessions: SessionTable;
  settings: SettingTable;
  audit_events: AuditEventTable;
  outbox: OutboxTable;
  trusted_devices: TrustedDeviceTable;
  known_browsers: KnownBrowserTable;
  identity_links: IdentityLinkTable;
  terms_texts: TermsTextTable;
  one_time_codes: OneTimeCodeTable;
  link_tokens: LinkTokenTable;
  consents: ConsentTable;
  throttles: ThrottleTable;
  platforms: PlatformTable;
  platform_access: PlatformAccessTable;
  oidc_store: OidcStoreTable;
  credentials: CredentialTable;
  biometric_challenges: BiometricChallengeTable;
  recovery_codes: RecoveryCodeTable;
}

export type UserRow = Selectable<UserTable>;
export type NewUser = Insertable<UserTable>;
export type UserUpdate = Updateable<UserTable>;
/**
 * A session as the portal reads it on every request; the upstream provider's ID token (sealed) is
 * read only when signing out (sessions repository, `findUpstreamSignIn`).
 */
export type SessionRow = Omit<Selectable<SessionTable>, 'upstream_provider' | 'upstream_id_token'>;
export type OutboxRow = Selectable<OutboxTable>;
export type NewOutbox = Insertable<OutboxTable>;
// Generated is re-exported for later tables with database defaults.
export type { Generated };
