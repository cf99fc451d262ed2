import { describe, expect, it } from 'vitest';
import {
  createI18n,
  createI18nInstance,
  FIRST_NAMESPACES,
  initI18n,
  loadNamespaces,
  NAMESPACES,
} from './i18n';
import { rememberLanguage } from '../lib/language';

describe('i18n', () => {
  it('loads the first screens’ namespaces first, the others when a page asks for them', async () => {
    const i18n = await initI18n(createI18nInstance(), 'en', FIRST_NAMESPACES);
    const later = NAMESPACES.filter((ns) => !FIRST_NAMESPACES.some((first) => first === ns));
    expect(later).toEqual([
      'security',
      'account',
      'oauth',
      'admin',
      'self-service',
      'legal',
      'my-data',
    ]);
    for (const ns of FIRST_NAMESPACES) expect(i18n.hasLoadedNamespace(ns), ns).toBe(true);
    for (const ns of later) expect(i18n.hasLoadedNamespace(ns), ns).toBe(false);
    expect(i18n.t('common:footer.privacy')).toBe('Personal data');
    await loadNamespaces(['legal']);
    expect(i18n.hasLoadedNamespace('legal')).toBe(true);
    expect(i18n.hasLoadedNamespace('admin')).toBe(false);
    await loadNamespaces(NAMESPACES);
    for (const ns of NAMESPACES) expect(i18n.hasLoadedNamespace(ns), ns).toBe(true);
    expect(i18n.t('admin:tabs.settings')).toBe('Settings');
    // A language switch brings every namespace loaded so far in the new language.
    await i18n.changeLanguage('fr');
    for (const ns of NAMESPACES) expect(i18n.hasLoadedNamespace(ns), ns).toBe(true);
  });

  it('uses the CLDR plural forms of Arabic (zero, one, two, few 3–10, many 11–99, other)', async () => {
    const i18n = await createI18n('ar');
    const say = (count: number) => i18n.t('wait:seconds', { count });
    expect(say(0)).toBe('0 ثانية');
    expect(say(1)).toBe('ثانية واحدة');
    expect(say(2)).toBe('ثانيتين');
    expect(say(3)).toBe('3 ثوانٍ');
    expect(say(10)).toBe('10 ثوانٍ');
    expect(say(11)).toBe('11 ثانية');
    expect(say(99)).toBe('99 ثانية');
    expect(say(100)).toBe('100 ثانية');
    expect(i18n.t('wait:minutes', { count: 2 })).toBe('دقيقتين');
    expect(i18n.t('wait:hours', { count: 5 })).toBe('5 ساعات');
    // Each Arabic form comes from its own key.
    const forms = [0, 1, 2, 3, 11, 100].map((count) => new Intl.PluralRules('ar').select(count));
    expect(forms).toEqual(['zero', 'one', 'two', 'few', 'many', 'other']);
  });

  it('uses French and English plurals', async () => {
    const fr = await createI18n('fr');
    expect(fr.t('wait:seconds', { count: 1 })).toBe('1 seconde');
    expect(fr.t('wait:seconds', { count: 30 })).toBe('30 secondes');
    expect(fr.t('wait:hours', { count: 1 })).toBe('1 heure');
    const en = await createI18n('en');
    expect(en.t('common:session.warning', { count: 1 })).toBe('Your session expires in 1 second.');
    expect(en.t('common:session.warning', { count: 42 })).toBe(
      'Your session expires in 42 seconds.',
    );
  });

  it('mirrors the language on <html lang dir> and keeps a switch in localStorage', async () => {
    const i18n = await createI18n('fr');
    expect(document.documentElement.lang).toBe('fr');
    expect(document.documentElement.dir).toBe('ltr');
    rememberLanguage('ar');
    await i18n.changeLanguage('ar');
    expect(document.documentElement.lang).toBe('ar');
    expect(document.documentElement.dir).toBe('rtl');
    expect(localStorage.getItem('lang')).toBe('ar');
    expect(i18n.t('login:title')).toBe('تسجيل الدخول');
  });
});
