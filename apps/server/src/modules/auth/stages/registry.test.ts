import { describe, expect, it } from 'vitest';
import { defaultSettings } from '../../settings/service.js';
import type { AppSettings } from '../../settings/service.js';
import type { Stage, StageSession, StageUser } from './registry.js';
import { nextStage, STAGES } from './registry.js';

const NOW = Date.UTC(2026, 5, 1);
const DAY = 24 * 60 * 60_000;
const SETTINGS: AppSettings = {
  ...defaultSettings({ session: { idleSeconds: 1800, absoluteSeconds: 43200 } }),
  CGU_VERSION: '2026-01',
  PASSWORD_EXPIRATION_DELAY: null,
};

/** A patient who passed everything: each row of the table breaks one or more facts. */
const DONE_USER: StageUser = {
  id: 'u1',
  email: 'jeanne@hygie.test',
  phone: '+33612345678',
  email_verified_at: NOW - DAY,
  phone_verified_at: NOW - DAY,
  profile: 'patient',
  cgu_version: '2026-01',
  must_create_password: 0,
  password_changed_at: NOW - 10 * DAY,
  totp_enabled_at: null,
  recovery_codes_left: 0,
};
const DONE_SESSION: StageSession = { mfa_verified_at: NOW, trusted_device_id: null };

interface Row {
  name: string;
  user?: Partial<StageUser>;
  session?: Partial<StageSession>;
  settings?: Partial<AppSettings>;
  expected: Stage;
}

const EVERYTHING_PENDING: Partial<StageUser> = {
  email_verified_at: null,
  phone_verified_at: null,
  cgu_version: '2025-01',
  must_create_password: 1,
  password_changed_at: null,
};
const NO_SECOND_FACTOR: Partial<StageSession> = { mfa_verified_at: null };

const TABLE: Row[] = [
  { name: 'everything passed', expected: 'complete' },
  {
    name: 'no second factor, everything else pending',
    user: EVERYTHING_PENDING,
    session: NO_SECOND_FACTOR,
    expected: 'two_factor_authentication_required',
  },
  {
    name: 'no second factor on a trusted device',
    session: { mfa_verified_at: null, trusted_device_id: 'd1' },
    expected: 'complete',
  },
  {
    name: 'trusted device, everything else pending',
    user: EVERYTHING_PENDING,
    session: { mfa_verified_at: null, trusted_device_id: 'd1' },
    expected: 'email_not_verified',
  },
  {
    name: 'e-mail not verified',
    user: { email_verified_at: null },
    expected: 'email_not_verified',
  },
  {
    name: 'e-mail and phone not verified',
    user: { email_verified_at: null, phone_verified_at: null },
    expected: 'email_not_verified',
  },
  {
    name: 'patient phone not verified',
    user: { phone_verified_at: null },
    expected: 'mobile_phone_not_verified',
  },
  {
    name: 'professional phone not verified',
    user: { profile: 'professional', phone_verified_at: null },
    expected: 'mobile_phone_not_verified',
  },
  {
    name: 'operator account without a phone',
    user: { profile: null, phone: null, phone_verified_at: null },
    expected: 'complete',
  },
  {
    name: 'phone not verified and old terms',
    user: { phone_verified_at: null, cgu_version: '2025-01' },
    expected: 'mobile_phone_not_verified',
  },
  { name: 'terms never accepted', user: { cgu_version: null }, expected: 'cgu_not_accepted' },
  {
    name: 'a newer terms version in force',
    settings: { CGU_VERSION: '2026-06' },
    expected: 'cgu_not_accepted',
  },
  {
    name: 'old terms and a password to create',
    user: { cgu_version: '2025-01', must_create_password: 1 },
    expected: 'cgu_not_accepted',
  },
  {
    name: 'password to create',
    user: { must_create_password: 1, password_changed_at: null },
    expected: 'password_creation_required',
  },
  {
    name: 'password to create, and an old one expired',
    user: { must_create_password: 1 },
    settings: { PASSWORD_EXPIRATION_DELAY: DAY / 1000 },
    expected: 'password_creation_required',
  },
  {
    name: 'password older than the delay',
    settings: { PASSWORD_EXPIRATION_DELAY: 10 * (DAY / 1000) },
    expected: 'password_expired',
  },
  {
    name: 'password younger than the delay',
    settings: { PASSWORD_EXPIRATION_DELAY: 11 * (DAY / 1000) },
    expected: 'complete',
  },
  {
    name: 'expiry off (no delay), however old the password',
    user: { password_changed_at: 0 },
    expected: 'complete',
  },
];

describe('the post-login stage registry', () => {
  it('lists the stages in the order of the spec', () => {
    expect(STAGES.map((s) => s.code)).toEqual([
      'two_factor_authentication_required',
      'email_not_verified',
      'mobile_phone_not_verified',
      'cgu_not_accepted',
      'password_creation_required',
      'password_expired',
    ]);
  });

  it.each(TABLE)('$name → $expected', ({ user, session, settings, expected }) => {
    expect(
      nextStage(
        { ...DONE_USER, ...user },
        { ...DONE_SESSION, ...session },
        { ...SETTINGS, ...settings },
        NOW,
      ),
    ).toBe(expected);
  });

  it('sends the masked second-factor hints with the second-factor stage only', () => {
    const [secondFactor, ...others] = STAGES;
    expect(secondFactor?.data?.(DONE_USER)).toMatchObject({
      two_factor_providers: ['email', 'sms'],
      sms_enabled: true,
    });
    for (const stage of others) expect(stage.data).toBeUndefined();
  });
});
