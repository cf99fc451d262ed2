// The registration choice screen offers the providers (issue #16): FranceConnect beside the
// patient choice, Pro Santé Connect beside the professional one, each started to register (an
// unknown identity lands in the pre-filled registration); nothing when none is configured.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Language } from '@hygie/domain';
import { expectNoAxeViolations } from '../../test/a11y';
import { PUBLIC_CONFIG } from '../../test/factories';
import { json } from '../../test/fake-api';
import { renderScreen } from '../../test/render-screen';
import RegisterPage from './register-page';

async function renderChoice(
  providers: string[],
  options: { language?: Language; path?: string } = {},
) {
  const rendered = await renderScreen(RegisterPage, {
    path: options.path ?? '/security/register',
    language: options.language ?? 'fr',
    handlers: {
      'GET /api/config': () => json(200, { ...PUBLIC_CONFIG, identityProviders: providers }),
    },
  });
  await screen.findByTestId('register-patient');
  return rendered;
}

const section = (name: RegExp) => screen.getByRole('region', { name });

describe('registration choice with the providers', () => {
  it('offers no provider when none is configured', async () => {
    const { calls } = await renderChoice([]);
    expect(screen.queryByTestId('register-idp-patient')).toBeNull();
    expect(screen.queryByTestId('register-idp-professional')).toBeNull();
    expect(screen.queryByRole('link', { name: /FranceConnect|Pro Santé Connect/ })).toBeNull();
    // The config was read: the absence is the configuration's, not a screen still loading.
    expect(calls.some((call) => call.url.pathname === '/api/config')).toBe(true);
  });

  it('offers FranceConnect to the patient and Pro Santé Connect to the professional, started to register', async () => {
    await renderChoice(['psc', 'franceconnect']);
    const patient = section(/Je suis patient/);
    const fc = within(patient).getByRole('link', { name: 'S’identifier avec FranceConnect' });
    expect(fc.getAttribute('href')).toBe('/api/idp/franceconnect/start?intent=register');
    expect(within(patient).queryByRole('link', { name: /Pro Santé Connect/ })).toBeNull();
    expect(
      within(patient).getByRole('link', { name: 'Qu’est-ce que FranceConnect ?' }),
    ).toBeTruthy();
    // The form stays the alternative.
    expect(within(patient).getByRole('link', { name: 'S’inscrire comme patient' })).toBeTruthy();

    const professional = section(/Je suis professionnel de santé/);
    const psc = within(professional).getByRole('link', {
      name: 'Se connecter avec Pro Santé Connect',
    });
    expect(psc.getAttribute('href')).toBe('/api/idp/psc/start?intent=register');
    expect(within(professional).queryByRole('link', { name: /FranceConnect/ })).toBeNull();
    expect(within(professional).getByTestId('register-idp-professional').textContent).toContain(
      'pas d’attente de validation',
    );
  });

  it('offers only the provider configured', async () => {
    await renderChoice(['psc']);
    expect(screen.queryByTestId('register-idp-patient')).toBeNull();
    expect(screen.getByTestId('register-idp-professional')).toBeTruthy();
  });

  it('puts the provider first in its card, the form after it, in the keyboard order', async () => {
    await renderChoice(['psc', 'franceconnect']);
    const user = userEvent.setup();
    const order: string[] = [];
    for (let i = 0; i < 20 && order.length < 5; i++) {
      await user.tab();
      const name = document.activeElement?.textContent ?? '';
      if (/FranceConnect|Pro Santé Connect|S’inscrire/.test(name)) order.push(name);
    }
    expect(order).toEqual([
      'S’identifier avec FranceConnect',
      'Qu’est-ce que FranceConnect ?',
      'S’inscrire comme patient',
      'Se connecter avec Pro Santé Connect',
      'S’inscrire comme professionnel',
    ]);
  });

  it('says why a provider sign-in started here came back', async () => {
    await renderChoice(['franceconnect'], {
      path: '/security/register?idp_error=identity_provider_unavailable',
    });
    expect(screen.getByTestId('idp-error').textContent).toBe(
      'La connexion avec cette méthode est actuellement indisponible. Réessayez dans quelques instants, ou connectez-vous avec votre mot de passe.',
    );
    // The provider's button is the retry, the form still offered.
    expect(screen.getByRole('link', { name: 'S’identifier avec FranceConnect' })).toBeTruthy();
    expect(screen.getByTestId('register-patient')).toBeTruthy();
  });

  it.each([
    ['fr', 'S’identifier avec FranceConnect', 'Se connecter avec Pro Santé Connect'],
    ['en', 'Sign in with FranceConnect', 'Sign in with Pro Santé Connect'],
    ['ar', 'تسجيل الدخول عبر FranceConnect', 'تسجيل الدخول عبر Pro Santé Connect'],
  ] as const)('is translated and passes axe in %s', async (language, fc, psc) => {
    await renderChoice(['psc', 'franceconnect'], { language });
    expect(screen.getByRole('link', { name: fc })).toBeTruthy();
    expect(screen.getByRole('link', { name: psc })).toBeTruthy();
    if (language === 'ar') expect(document.documentElement.dir).toBe('rtl');
    await expectNoAxeViolations();
  });
});
