// The providers' official buttons (issue #16): FranceConnect's DSFR button with its logo and its
// "Qu’est-ce que FranceConnect ?" link, Pro Santé Connect's after the ANS's layout, a plain one for
// another provider; real links named by their visible text, in every language and brand.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { getContrastRatio } from '@mui/material/styles';
import { describe, expect, it } from 'vitest';
import { BRANDS, type Brand, type Language } from '@hygie/domain';
import { createAppTheme } from '../lib/theme';
import LoginPage from '../features/auth/login-page';
import { expectNoAxeViolations } from '../test/a11y';
import { PUBLIC_CONFIG } from '../test/factories';
import { json } from '../test/fake-api';
import { renderScreen } from '../test/render-screen';
import { FRANCECONNECT_COLORS, identityProviderStartUrl } from './identity-provider-button';

function renderLogin(
  providers: string[],
  options: { language?: Language; brand?: Brand; path?: string; plus?: boolean } = {},
) {
  return renderScreen(LoginPage, {
    path: options.path ?? '/security/login',
    language: options.language ?? 'fr',
    brand: options.brand ?? 'hygie',
    handlers: {
      'GET /api/config': () =>
        json(200, {
          ...PUBLIC_CONFIG,
          identityProviders: providers,
          ...(options.plus ? { franceConnectPlus: true } : {}),
        }),
    },
  });
}

/** WCAG's contrast ratio, as MUI computes it for its own palette. */
const contrast = getContrastRatio;

describe('identityProviderStartUrl', () => {
  it.each([
    ['psc', {}, '/api/idp/psc/start'],
    ['psc', { target: '/devices' }, '/api/idp/psc/start?target_uri=%2Fdevices'],
    ['franceconnect', { intent: 'register' }, '/api/idp/franceconnect/start?intent=register'],
    ['franceconnect', { intent: 'sign_in', target: null }, '/api/idp/franceconnect/start'],
    [
      'a b',
      { target: '/x?y=1', intent: 'register' },
      '/api/idp/a%20b/start?target_uri=%2Fx%3Fy%3D1&intent=register',
    ],
  ] as const)('starts %s with %j at %s', (provider, options, url) => {
    expect(identityProviderStartUrl(provider, options)).toBe(url);
  });
});

describe('the providers’ official buttons', () => {
  it('draws FranceConnect’s button: its logo, its wording, and the link about it in a new window', async () => {
    await renderLogin(['franceconnect']);
    const button = await screen.findByRole('link', { name: 'S’identifier avec FranceConnect' });
    expect(button.getAttribute('href')).toBe('/api/idp/franceconnect/start');
    expect(button.getAttribute('data-variant')).toBe('default');
    // The logo is decorative: the name is the visible text, nothing more.
    const logo = button.querySelector('img');
    expect(logo?.getAttribute('src')).toBe('/providers/franceconnect.svg');
    expect(logo?.getAttribute('alt')).toBe('');
    const group = screen.getByTestId('idp-group-franceconnect');
    expect(group.textContent).toContain(
      'FranceConnect est la solution proposée par l’État pour sécuriser et simplifier la connexion à vos services en ligne.',
    );
    const about = within(group).getByRole('link', { name: 'Qu’est-ce que FranceConnect ?' });
    expect(about.getAttribute('href')).toBe('https://franceconnect.gouv.fr/');
    expect(about.getAttribute('target')).toBe('_blank');
    expect(about.getAttribute('rel')).toContain('noopener');
    expect(about.getAttribute('title')).toBe('Qu’est-ce que FranceConnect ? - nouvelle fenêtre');
  });

  it('draws the FranceConnect+ variant when FranceConnect is FranceConnect+', async () => {
    await renderLogin(['franceconnect'], { plus: true });
    const button = await screen.findByRole('link', { name: 'S’identifier avec FranceConnect+' });
    expect(button.getAttribute('data-variant')).toBe('plus');
    const about = screen.getByRole('link', { name: 'Qu’est-ce que FranceConnect+ ?' });
    expect(about.getAttribute('href')).toBe('https://franceconnect.gouv.fr/france-connect-plus');
    expect(about.getAttribute('title')).toBe('Qu’est-ce que FranceConnect+ ? - nouvelle fenêtre');
    expect(screen.queryByRole('link', { name: 'Qu’est-ce que FranceConnect ?' })).toBeNull();
  });

  it('draws Pro Santé Connect’s button with its wording and a decorative mark', async () => {
    await renderLogin(['psc']);
    const button = await screen.findByRole('link', { name: 'Se connecter avec Pro Santé Connect' });
    expect(button.getAttribute('href')).toBe('/api/idp/psc/start');
    expect(button.querySelector('[aria-hidden="true"] svg')).not.toBeNull();
    expect(screen.queryByRole('link', { name: /Qu’est-ce que FranceConnect/ })).toBeNull();
  });

  it('names another provider by its id, on a plain button', async () => {
    await renderLogin(['hospital']);
    const button = await screen.findByRole('link', { name: 'Se connecter avec hospital' });
    expect(button.getAttribute('href')).toBe('/api/idp/hospital/start');
  });

  it('is reached by Tab in order: Pro Santé Connect, FranceConnect, then the link about it', async () => {
    await renderLogin(['psc', 'franceconnect']);
    const psc = await screen.findByRole('link', { name: 'Se connecter avec Pro Santé Connect' });
    const fc = screen.getByRole('link', { name: 'S’identifier avec FranceConnect' });
    const about = screen.getByRole('link', { name: 'Qu’est-ce que FranceConnect ?' });
    const user = userEvent.setup();
    for (let i = 0; i < 15 && document.activeElement !== psc; i++) await user.tab();
    expect(document.activeElement).toBe(psc);
    await user.tab();
    expect(document.activeElement).toBe(fc);
    await user.tab();
    expect(document.activeElement).toBe(about);
  });

  it('reads in Arabic, right to left, the logo at the start (the right)', async () => {
    await renderLogin(['psc', 'franceconnect'], { language: 'ar', brand: 'telecare' });
    const fc = await screen.findByRole('link', { name: 'تسجيل الدخول عبر FranceConnect' });
    expect(screen.getByRole('link', { name: 'تسجيل الدخول عبر Pro Santé Connect' })).toBeTruthy();
    expect(document.documentElement.dir).toBe('rtl');
    const logo = fc.querySelector('img');
    expect(logo && getComputedStyle(logo).right).toBe('0.75em');
    expect(screen.getByRole('link', { name: 'ما هو FranceConnect؟' }).getAttribute('title')).toBe(
      'ما هو FranceConnect؟ - نافذة جديدة',
    );
    await expectNoAxeViolations();
  });

  it.each(BRANDS)('passes axe in French in the %s brand', async (brand) => {
    await renderLogin(['psc', 'franceconnect'], { brand });
    await screen.findByRole('link', { name: 'S’identifier avec FranceConnect' });
    await expectNoAxeViolations();
  });

  it('keeps FranceConnect’s text and link above AA contrast, at rest, hovered and pressed', () => {
    for (const background of [
      FRANCECONNECT_COLORS.background,
      FRANCECONNECT_COLORS.hover,
      FRANCECONNECT_COLORS.active,
    ]) {
      expect(contrast(FRANCECONNECT_COLORS.text, background)).toBeGreaterThanOrEqual(4.5);
    }
    expect(contrast(FRANCECONNECT_COLORS.background, '#ffffff')).toBeGreaterThanOrEqual(4.5);
    // The focus ring is a non-text contrast against the page (3:1).
    expect(contrast(FRANCECONNECT_COLORS.focus, '#ffffff')).toBeGreaterThanOrEqual(3);
  });

  it.each(BRANDS)('keeps Pro Santé Connect’s text above AA contrast in the %s brand', (brand) => {
    const { palette } = createAppTheme(brand, 'ltr');
    for (const background of [palette.primary.main, palette.primary.dark]) {
      expect(contrast(palette.primary.contrastText, background)).toBeGreaterThanOrEqual(4.5);
    }
  });
});
