import { describe, expect, it } from 'vitest';
import { BRAND_NAMES, BRANDS, LANGUAGES } from '@hygie/domain';
import { SAMPLE_PARAMS as PARAMS } from './samples.js';
import type { LetterSettings } from './templates.js';
import { formatDuration, formatMoment, renderMessage, TEMPLATE_NAMES } from './templates.js';

const LETTER: LetterSettings = {
  timeZone: 'Europe/Paris',
  publicUrl: new URL('https://portal.example.fr/'),
  contactEmail: 'help@portal.example.fr',
};

/** The parameters each template must show (`date` is written from `at`). */
const EXPECTED: Record<string, string[]> = {
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
  identity_linked: ['provider', 'date', 'lockUrl'],
  identity_unlinked: ['provider', 'date', 'lockUrl'],
  totp_enabled: ['date', 'lockUrl'],
  totp_removed: ['date', 'lockUrl'],
  recovery_codes_generated: ['date', 'lockUrl'],
  recovery_code_used: ['date', 'remaining', 'lockUrl'],
  account_changed: ['contactEmail'],
  password_reset_link: ['link'],
};

/** The main link each template draws as a button. */
const BUTTON: Record<string, string | undefined> = {
  verification_code: 'link',
  first_login_invitation: 'link',
  password_reset_link: 'link',
  account_validated: 'loginUrl',
  identifier_in_use: 'loginUrl',
  sign_in_notice: 'lockUrl',
  password_changed: 'lockUrl',
  email_changed: 'lockUrl',
  phone_changed: 'lockUrl',
  biometric_added: 'lockUrl',
  identity_linked: 'lockUrl',
  identity_unlinked: 'lockUrl',
  totp_enabled: 'lockUrl',
  totp_removed: 'lockUrl',
  recovery_codes_generated: 'lockUrl',
  recovery_code_used: 'lockUrl',
};

const DATE_IN_WORDS = {
  fr: '21 novembre 2026',
  en: '21 November 2026',
  ar: '21 نوفمبر 2026',
};

function shown(key: string, language: (typeof LANGUAGES)[number]): string {
  return key === 'date' ? DATE_IN_WORDS[language] : (PARAMS[key] ?? '');
}

const amp = (value: string) => value.replace(/&/g, '&amp;');
const hrefs = (html: string) =>
  [...html.matchAll(/href="([^"]*)"/g)].map((m) => (m[1] ?? '').replace(/&amp;/g, '&'));
const urls = Object.values(PARAMS).filter((value) => /^https?:\/\//.test(value));

describe('message templates', () => {
  it('lists the parameters of every template', () => {
    expect(Object.keys(EXPECTED).sort()).toEqual([...TEMPLATE_NAMES].sort());
  });

  const cases = TEMPLATE_NAMES.flatMap((name) =>
    LANGUAGES.flatMap((language) => BRANDS.map((brand) => [name, language, brand] as const)),
  );

  it.each(cases)('%s renders in %s for %s with all its parameters', (name, language, brand) => {
    const m = renderMessage(name, language, brand, PARAMS, LETTER);
    expect(m.subject.length).toBeGreaterThan(0);
    for (const key of EXPECTED[name] ?? []) {
      expect(m.text).toContain(shown(key, language));
      expect(m.html).toContain(amp(shown(key, language)));
    }
    expect(m.sms.length).toBeGreaterThan(0);
    expect(m.html).toContain(`lang="${language}"`);
    expect(m.html).toContain(`dir="${language === 'ar' ? 'rtl' : 'ltr'}"`);
    expect(m.subject).toContain(brand === 'telecare' ? 'Télésoin' : 'Hygie');
  });

  it.each(cases)('%s in %s for %s: logo, button, links and footer', (name, language, brand) => {
    const m = renderMessage(name, language, brand, PARAMS, LETTER);
    // The brand's logo, from the portal, named by its alternative text, in the brand's colour.
    expect(m.html).toContain(`<img src="https://portal.example.fr/brands/${brand}.png"`);
    expect(m.html).toContain(`alt="${BRAND_NAMES[brand]}"`);
    expect(m.html.toLowerCase()).toContain(brand === 'telecare' ? '#13354d' : '#1976d2');
    // Every link goes to an address the message was given, or to the portal.
    for (const href of hrefs(m.html)) expect([...urls, LETTER.publicUrl.href]).toContain(href);
    // The main link is a button, and is also given in text in both parts.
    const buttonParam = BUTTON[name];
    const button = /<a href="([^"]*)" data-button[^>]*>([^<]+)<\/a>/.exec(m.html);
    if (buttonParam) {
      const url = PARAMS[buttonParam] ?? '';
      expect(button?.[1]).toBe(amp(url));
      expect(button?.[2]?.length).toBeGreaterThan(3);
      expect(m.text).toContain(url);
      expect(m.html).toContain(`>${amp(url)}</a>`);
    } else {
      expect(button).toBeNull();
    }
    // The footer says why the message came and where to get help, in both parts.
    for (const part of [m.text, m.html]) {
      expect(part).toContain(LETTER.contactEmail);
      expect(part).toContain(LETTER.publicUrl.href);
    }
    // The plain-text part carries no markup and no invisible direction marks.
    expect(m.text).not.toMatch(/<[a-z]/i);
    expect(m.text).not.toMatch(/[\u2066-\u2069]/);
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
      const bare = renderMessage(
        'account_changed',
        language,
        'hygie',
        { ...PARAMS, change: '' },
        LETTER,
      );
      const texts = changes.map(
        (change) =>
          renderMessage('account_changed', language, 'hygie', { ...PARAMS, change }, LETTER).text,
      );
      expect(new Set(texts).size).toBe(changes.length);
      for (const text of texts) expect(text.length).toBeGreaterThan(bare.text.length + 20);
    }
  });

  it('keeps codes, addresses and numbers left-to-right inside Arabic text', () => {
    for (const name of TEMPLATE_NAMES) {
      const m = renderMessage(name, 'ar', 'hygie', PARAMS, LETTER);
      for (const key of ['code', 'contactEmail', 'ip', 'newEmail', 'newPhone']) {
        const value = PARAMS[key] ?? '';
        if (!m.text.includes(value)) continue;
        // Every occurrence sits in a left-to-right isolate.
        const bare = m.html.split(`<bdi dir="ltr"><strong>${value}</strong></bdi>`).join('');
        expect(bare, `${name}: ${key}`).not.toContain(value);
      }
      for (const anchor of m.html.matchAll(/<a href="[^"]*"[^>]*>/g)) {
        if (!anchor[0].includes('data-button')) expect(anchor[0]).toContain('dir="ltr"');
      }
    }
  });

  it('writes dates in words, in the configured time zone, naming it', () => {
    const at = Date.UTC(2026, 10, 21, 10, 0);
    expect(formatMoment(at, 'fr', 'Europe/Paris')).toBe('21 novembre 2026 à 11:00 UTC+1');
    expect(formatMoment(at, 'en', 'UTC')).toBe('21 November 2026 at 10:00 UTC');
    expect(formatMoment(Date.UTC(2026, 6, 1, 10, 0), 'fr', 'Europe/Paris')).toContain(
      '12:00 UTC+2',
    );
    expect(formatMoment(at, 'ar', 'Europe/Paris')).toMatch(/^21 نوفمبر 2026/);
    const paris = renderMessage('sign_in_notice', 'fr', 'hygie', PARAMS, LETTER);
    expect(paris.text).toContain('21 novembre 2026 à 11:00 UTC+1');
    const utc = renderMessage('sign_in_notice', 'fr', 'hygie', PARAMS, {
      ...LETTER,
      timeZone: 'UTC',
    });
    expect(utc.text).toContain('21 novembre 2026 à 10:00 UTC');
  });

  it('says how long a code lives from the setting, with each language’s plural rules', () => {
    const ttl = (ttlSeconds: string, language: (typeof LANGUAGES)[number]) =>
      renderMessage('mfa_code', language, 'hygie', { ...PARAMS, ttlSeconds }, LETTER);
    expect(ttl('300', 'fr').text).toContain('valable 5 minutes');
    expect(ttl('300', 'fr').sms).toContain('valable 5 min');
    expect(ttl('60', 'fr').text).toContain('valable 1 minute.');
    expect(ttl('3600', 'fr').text).toContain('valable 1 heure');
    expect(ttl('600', 'en').text).toContain('valid for 10 minutes');
    expect(ttl('120', 'ar').text).toContain('دقيقتان');
    expect(ttl('300', 'ar').text).toContain('5 دقائق');
    expect(ttl('660', 'ar').text).toContain('11 دقيقة');
    // Never longer than the truth: 90 s is "1 minute".
    expect(formatDuration(90, 'en')).toBe('1 minute');
    for (const language of LANGUAGES) {
      expect(ttl('300', language).text).not.toContain('10');
    }
  });

  it('makes links clickable in HTML', () => {
    const m = renderMessage('sign_in_notice', 'fr', 'hygie', PARAMS, LETTER);
    expect(m.html).toContain(`<a href="${amp(PARAMS.lockUrl ?? '')}"`);
  });

  it('escapes parameters in HTML', () => {
    const m = renderMessage('verification_code', 'en', 'hygie', { code: '<b>x</b>' }, LETTER);
    expect(m.html).not.toContain('<b>x</b>');
    expect(m.html).toContain('&lt;b&gt;x&lt;/b&gt;');
  });
});
