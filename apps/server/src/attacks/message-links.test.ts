import { BRANDS, LANGUAGES } from '@hygie/domain';
import { describe, expect, it } from 'vitest';
import { neutraliseLinks, renderMessage } from '../messaging/templates.js';

const LETTER = {
  timeZone: 'Europe/Paris',
  publicUrl: new URL('https://portal.example.fr/'),
  contactEmail: 'help@portal.example.fr',
};

// Attacker suite (security issue, point 15): text a user or their browser chose (a device name, a
// user agent) must not become a link in a security e-mail, where it would sit next to the real
// "lock my account" link.
const BAIT = 'https://evil.example/lock-account?code=1 or www.evil.example';

describe('user-chosen text in messages', () => {
  it.each(
    (['sign_in_notice', 'biometric_added', 'password_changed'] as const).flatMap((template) =>
      LANGUAGES.flatMap((language) => BRANDS.map((brand) => [template, language, brand] as const)),
    ),
  )('%s (%s, %s) links only the portal’s own URLs', (template, language, brand) => {
    const message = renderMessage(
      template,
      language,
      brand,
      {
        at: String(Date.UTC(2026, 10, 23, 10, 0)),
        device: BAIT,
        keys: `Pixel, ${BAIT}`,
        ip: '203.0.113.7',
        lockUrl: 'https://portal.example.fr/security/lock-account?code=abc',
        devicesUrl: 'https://portal.example.fr/devices',
      },
      LETTER,
    );
    const hrefs = [...message.html.matchAll(/href="([^"]*)"/g)].map((m) => m[1]);
    // The lock link (in text and as a button), the devices page, and the portal in the footer.
    const own = ['https://portal.example.fr/devices', 'https://portal.example.fr/'];
    expect([...new Set(hrefs.filter((href) => !own.includes(href ?? '')))]).toEqual([
      'https://portal.example.fr/security/lock-account?code=abc',
    ]);
    for (const part of [message.text, message.html]) {
      expect(part).not.toContain('https://evil');
      expect(part).not.toContain('evil.example');
      expect(part).toContain('evil[.]example');
    }
  });

  it('leaves ordinary device descriptions readable', () => {
    expect(neutraliseLinks('Chrome 120.0 on macOS 14.2')).toBe('Chrome 120.0 on macOS 14.2');
    expect(neutraliseLinks('iPhone de Jeanne')).toBe('iPhone de Jeanne');
  });
});
