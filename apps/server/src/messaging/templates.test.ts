import { describe, expect, it } from 'vitest';
import { BRANDS, LANGUAGES } from '@hygie/domain';
import { renderMessage, TEMPLATE_NAMES } from './templates.js';

describe('message templates', () => {
  const cases = TEMPLATE_NAMES.flatMap((name) =>
    LANGUAGES.flatMap((language) => BRANDS.map((brand) => [name, language, brand] as const)),
  );

  it.each(cases)('%s renders in %s for %s', (name, language, brand) => {
    const m = renderMessage(name, language, brand, { code: '135790' });
    expect(m.subject.length).toBeGreaterThan(0);
    expect(m.text).toContain('135790');
    expect(m.sms).toContain('135790');
    expect(m.html).toContain(`lang="${language}"`);
    expect(m.html).toContain(`dir="${language === 'ar' ? 'rtl' : 'ltr'}"`);
  });

  it('keeps the code left-to-right inside Arabic text', () => {
    const m = renderMessage('verification_code', 'ar', 'hygie', { code: '135790' });
    expect(m.html).toContain('<bdi dir="ltr"><strong>135790</strong></bdi>');
  });

  it('escapes parameters in HTML', () => {
    const m = renderMessage('verification_code', 'en', 'hygie', { code: '<b>x</b>' });
    expect(m.html).not.toContain('<b>x</b>');
    expect(m.html).toContain('&lt;b&gt;x&lt;/b&gt;');
  });
});
