import { describe, expect, it } from 'vitest';
import { BRANDS, LANGUAGES } from '@hygie/domain';
import { renderMessage, TEMPLATE_NAMES } from './templates.js';

// Every parameter a template may use, with values easy to spot in the output.
const PARAMS = {
  code: '135790',
  link: 'http://localhost:3000/security/first-login?code=abc',
  lockUrl: 'http://localhost:3000/security/lock-account?email=a%40b.fr&code=xyz',
  loginUrl: 'http://localhost:3000/security/login',
  contactEmail: 'help@hygie.test',
  date: '2026-11-21 10:00 UTC',
  ip: '192.0.2.7',
  device: 'Chrome / Linux',
  newEmail: 'new@hygie.test',
  newPhone: '+33611111111',
  keys: 'iPhone de Jeanne, Pixel',
  devicesUrl: 'http://localhost:3000/devices',
  change: 'disabled',
};

const EXPECTED: Record<string, (keyof typeof PARAMS)[]> = {
  verification_code: ['code'],
  mfa_code: ['code'],
  password_reset_code: ['code'],
  sign_in_notice: ['date', 'ip', 'device', 'lockUrl'],
  first_login_invitation: ['link'],
  account_locked: ['contactEmail'],
  account_validated: ['loginUrl'],
  account_rejected: ['contactEmail'],
  identifier_in_use: ['loginUrl', 'contactEmail'],
  identifier_claimed: ['date', 'contactEmail'],
  password_changed: ['date', 'keys', 'devicesUrl', 'lockUrl'],
  email_changed: ['newEmail', 'date', 'lockUrl'],
  phone_changed: ['newPhone', 'date', 'lockUrl'],
  biometric_added: ['device', 'date', 'lockUrl'],
  account_changed: ['contactEmail'],
  password_reset_link: ['link'],
};

describe('message templates', () => {
  it('lists the parameters of every template', () => {
    expect(Object.keys(EXPECTED).sort()).toEqual([...TEMPLATE_NAMES].sort());
  });

  const cases = TEMPLATE_NAMES.flatMap((name) =>
    LANGUAGES.flatMap((language) => BRANDS.map((brand) => [name, language, brand] as const)),
  );

  it.each(cases)('%s renders in %s for %s with all its parameters', (name, language, brand) => {
    const m = renderMessage(name, language, brand, PARAMS);
    expect(m.subject.length).toBeGreaterThan(0);
    for (const key of EXPECTED[name] ?? []) {
      expect(m.text).toContain(PARAMS[key]);
      expect(m.html).toContain(PARAMS[key].replace(/&/g, '&amp;'));
    }
    expect(m.sms.length).toBeGreaterThan(0);
    expect(m.html).toContain(`lang="${language}"`);
    expect(m.html).toContain(`dir="${language === 'ar' ? 'rtl' : 'ltr'}"`);
    expect(m.subject).toContain(brand === 'telecare' ? 'Télésoin' : 'Hygie');
  });

  it('says in every language what an admin (or the owner) changed, each change in its own words', () => {
    const changes = [
      'disabled',
      'reopened',
      'sessions_ended',
      'admin_granted',
      'admin_revoked',
      'deleted',
      'self_deleted',
    ];
    for (const language of LANGUAGES) {
      const bare = renderMessage('account_changed', language, 'hygie', { ...PARAMS, change: '' });
      const texts = changes.map(
        (change) => renderMessage('account_changed', language, 'hygie', { ...PARAMS, change }).text,
      );
      expect(new Set(texts).size).toBe(changes.length);
      for (const text of texts) expect(text.length).toBeGreaterThan(bare.text.length + 20);
    }
  });

  it('keeps the code left-to-right inside Arabic text', () => {
    const m = renderMessage('verification_code', 'ar', 'hygie', { code: '135790' });
    expect(m.html).toContain('<bdi dir="ltr"><strong>135790</strong></bdi>');
  });

  it('makes links clickable in HTML', () => {
    const m = renderMessage('sign_in_notice', 'fr', 'hygie', PARAMS);
    expect(m.html).toContain(`<a href="${PARAMS.lockUrl.replace(/&/g, '&amp;')}"`);
  });

  it('escapes parameters in HTML', () => {
    const m = renderMessage('verification_code', 'en', 'hygie', { code: '<b>x</b>' });
    expect(m.html).not.toContain('<b>x</b>');
    expect(m.html).toContain('&lt;b&gt;x&lt;/b&gt;');
  });
});
