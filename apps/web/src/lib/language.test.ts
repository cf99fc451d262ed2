import { describe, expect, it } from 'vitest';
import { applyDocumentLanguage, detectLanguage, directionOf } from './language';

describe('language detection', () => {
  it('prefers the stored choice', () => {
    expect(detectLanguage('ar', ['en-US'])).toBe('ar');
    // A platform's ui_locales, passed through the sign-in as ?l=, wins for this visit.
    expect(detectLanguage('fr', ['fr-FR'], 'ar')).toBe('ar');
    expect(detectLanguage('en', ['fr-FR'], 'de')).toBe('en');
  });

  it('ignores an unsupported stored value and falls back to the browser', () => {
    expect(detectLanguage('de', ['de-DE', 'en-GB', 'fr'])).toBe('en');
  });

  it('matches the primary subtag of browser languages', () => {
    expect(detectLanguage(null, ['ar-MA'])).toBe('ar');
  });

  it('defaults to French', () => {
    expect(detectLanguage(null, ['de-DE', 'es'])).toBe('fr');
    expect(detectLanguage(null, [])).toBe('fr');
  });

  it('writes lang and dir on <html>', () => {
    applyDocumentLanguage('ar');
    expect(document.documentElement.lang).toBe('ar');
    expect(document.documentElement.dir).toBe('rtl');
    applyDocumentLanguage('en');
    expect(document.documentElement.dir).toBe('ltr');
    expect(directionOf('fr')).toBe('ltr');
  });
});
