import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Brand, Language } from '@hygie/domain';
import { expectNoAxeViolations } from '../../test/a11y';
import { makeUser } from '../../test/factories';
import { apiError, json } from '../../test/fake-api';
import { LEGAL_INFORMATION, UNCONFIGURED_LEGAL_INFORMATION } from '../../test/legal-data';
import { renderScreenAt } from '../../test/screens';
import { pendingMe, SECURITY_SCREEN_HANDLERS } from '../../test/stages';

const FOOTER_LINKS = {
  fr: [
    ['Mentions légales', '/legal-notice'],
    ['Données personnelles', '/privacy'],
    ['Accessibilité : non conforme', '/accessibility'],
    ['Contact', '/contact'],
  ],
  ar: [
    ['الإشعار القانوني', '/legal-notice'],
    ['البيانات الشخصية', '/privacy'],
    ['إمكانية الوصول: غير مطابق', '/accessibility'],
    ['اتصل بنا', '/contact'],
  ],
};

const FOOTER_LABEL = { fr: 'Informations légales', ar: 'معلومات قانونية' };

/** The footer landmark and its links, in order, as [name, href]. */
function footerLinks(language: 'fr' | 'ar') {
  const footer = screen.getByRole('contentinfo');
  const nav = within(footer).getByRole('navigation', { name: FOOTER_LABEL[language] });
  return within(nav)
    .getAllByRole('link')
    .map((link) => [link.textContent, link.getAttribute('href')]);
}

const VARIANTS: [Language & ('fr' | 'ar'), Brand][] = [
  ['fr', 'hygie'],
  ['fr', 'telecare'],
  ['ar', 'hygie'],
  ['ar', 'telecare'],
];

describe('the footer of every layout', () => {
  it.each([
    ['the security screens', '/security/login', null],
    ['the signed-in area', '/', makeUser()],
    ['the profile editor', '/profile/update', makeUser()],
    ['the OAuth error page', '/oauth-error?error=access_denied', null],
    ['the legal pages', '/contact', null],
  ])('%s end with the legal links', async (_, path, user) => {
    await renderScreenAt({ path, user, handlers: SECURITY_SCREEN_HANDLERS });
    await screen.findByRole('heading', { level: 1 });
    expect(screen.getAllByRole('contentinfo')).toHaveLength(1);
    expect(footerLinks('fr')).toEqual(FOOTER_LINKS.fr);
  });

  it.each(VARIANTS)(
    'is translated and axe-clean in %s with the %s brand',
    async (language, brand) => {
      await renderScreenAt({ path: '/security/login', language, brand });
      await screen.findByRole('heading', { level: 1 });
      expect(footerLinks(language)).toEqual(FOOTER_LINKS[language]);
      expect(document.documentElement.dir).toBe(language === 'ar' ? 'rtl' : 'ltr');
      await expectNoAxeViolations(screen.getByRole('contentinfo'));
    },
  );

  it('is reached with the keyboard from the sign-in page and opens the page', async () => {
    const { router } = await renderScreenAt({
      path: '/security/login',
      also: { '/accessibility': (await import('./accessibility-page')).default },
    });
    await screen.findByRole('heading', { level: 1, name: 'Connexion' });
    const user = userEvent.setup();
    const target = screen.getByRole('link', { name: 'Accessibilité : non conforme' });
    for (let presses = 0; presses < 40 && document.activeElement !== target; presses++) {
      await user.tab();
    }
    expect(document.activeElement).toBe(target);
    await user.keyboard('{Enter}');
    await screen.findByRole('heading', { level: 1, name: 'Déclaration d’accessibilité' });
    expect(router.state.location.pathname).toBe('/accessibility');
  });
});

describe.each(VARIANTS)('the legal pages in %s with the %s brand', (language, brand) => {
  it.each(['/legal-notice', '/privacy', '/accessibility', '/contact'])(
    '%s: one h1, sections, the footer, and no axe violation',
    async (path) => {
      await renderScreenAt({ path, language, brand });
      await waitFor(() => expect(document.querySelector('main h1')).toBeTruthy());
      // The configured facts have arrived (no spinner left).
      await waitFor(() => expect(screen.queryByRole('progressbar')).toBeNull());
      expect(document.querySelectorAll('h1')).toHaveLength(1);
      expect(screen.getByRole('contentinfo')).toBeTruthy();
      await expectNoAxeViolations();
    },
  );
});

describe('the legal notice', () => {
  it('names the publisher, director of publication, health-data host and contact', async () => {
    await renderScreenAt({ path: '/legal-notice' });
    expect((await screen.findByTestId('legal-publisher')).textContent).toBe(
      'Centre hospitalier de Test',
    );
    expect(screen.getByTestId('legal-director').textContent).toBe('Jeanne Directrice');
    expect(screen.getByTestId('legal-host').textContent).toBe('Hébergeur Santé SAS');
    expect(screen.getByText('HDS-2024-001')).toBeTruthy();
    expect(
      screen.getByText(/hébergeur certifié pour l’hébergement de données de santé \(HDS\)/),
    ).toBeTruthy();
    expect(screen.getByTestId('legal-contact-email').getAttribute('href')).toBe(
      'mailto:support@hygie.example',
    );
  });

  it('says what the operator did not configure', async () => {
    await renderScreenAt({
      path: '/legal-notice',
      handlers: { 'GET /api/legal': () => json(200, UNCONFIGURED_LEGAL_INFORMATION) },
    });
    expect((await screen.findByTestId('legal-publisher')).textContent).toBe(
      'non renseigné par l’exploitant du portail',
    );
    expect(screen.getByTestId('legal-host').textContent).toBe(
      'non renseigné par l’exploitant du portail',
    );
    await expectNoAxeViolations();
  });

  it('says when the facts cannot be loaded', async () => {
    await renderScreenAt({
      path: '/legal-notice',
      handlers: { 'GET /api/legal': () => apiError(503, 'service_unavailable') },
    });
    expect(
      await screen.findByText('Ces informations n’ont pas pu être chargées. Réessayez plus tard.'),
    ).toBeTruthy();
  });
});

describe('the personal-data policy', () => {
  it('gives the controller, the retention in force, the rights and where to exercise them', async () => {
    await renderScreenAt({
      path: '/privacy',
      handlers: {
        'GET /api/legal': () =>
          json(200, { ...LEGAL_INFORMATION, retention: { auditDays: 90, trustedDeviceDays: 7 } }),
      },
    });
    expect((await screen.findByTestId('privacy-controller')).textContent).toBe(
      'Centre hospitalier de Test',
    );
    expect(screen.getByTestId('privacy-retention-audit').textContent).toMatch(
      /^Le journal de sécurité est conservé 90 jours/,
    );
    expect(screen.getByTestId('privacy-retention-devices').textContent).toBe(
      'Un appareil de confiance est mémorisé 7 jours.',
    );
    expect(screen.getByTestId('privacy-dpo').textContent).toBe('dpo@hygie.example');
    expect(screen.getByText(/« Télécharger mes données »/)).toBeTruthy();
    expect(screen.getByText(/« Supprimer mon compte »/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Mon profil' }).getAttribute('href')).toBe('/profile');
    expect(screen.getByRole('link', { name: 'Modifier mon profil' }).getAttribute('href')).toBe(
      '/profile/update',
    );
    expect(
      screen.getByRole('link', { name: 'Adresser une plainte à la CNIL (site cnil.fr)' }),
    ).toBeTruthy();
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual([
      'Responsable du traitement',
      'Finalités et bases légales',
      'Données traitées',
      'Durées de conservation',
      'Destinataires',
      'Vos droits',
      'Délégué à la protection des données',
      'Réclamation',
      'Cookies',
    ]);
  });

  it('stays open during a half-open sign-in (terms to accept)', async () => {
    const { router } = await renderScreenAt({
      path: '/privacy',
      me: pendingMe('cgu_not_accepted'),
      handlers: SECURITY_SCREEN_HANDLERS,
    });
    await screen.findByRole('heading', { level: 1, name: 'Protection des données personnelles' });
    expect(router.state.location.pathname).toBe('/privacy');
  });
});

describe('the accessibility statement', () => {
  it('declares the honest conformance state, its date, the contact and the remedies', async () => {
    await renderScreenAt({ path: '/accessibility' });
    await screen.findByRole('heading', { level: 1, name: 'Déclaration d’accessibilité' });
    expect(screen.getByTestId('accessibility-state').textContent).toMatch(
      /^Le portail Hygie est non conforme avec le référentiel général d’amélioration de l’accessibilité \(RGAA\), version 4\.1 : aucun audit/,
    );
    // The date the operator configured (LEGAL_ACCESSIBILITY_DATE), not one built into the client.
    expect((await screen.findByTestId('accessibility-date')).textContent).toBe(
      'Cette déclaration a été établie le 15 février 2027.',
    );
    expect((await screen.findByTestId('accessibility-contact')).getAttribute('href')).toBe(
      'mailto:support@hygie.example',
    );
    expect(
      screen
        .getByRole('link', {
          name: 'Écrire un message au Défenseur des droits (formulaire en ligne)',
        })
        .getAttribute('href'),
    ).toBe('https://formulaire.defenseurdesdroits.fr/');
    expect(screen.getByText(/Libre réponse 71120/)).toBeTruthy();
  });

  it('gives the date in Arabic with Latin digits', async () => {
    await renderScreenAt({ path: '/accessibility', language: 'ar' });
    expect((await screen.findByTestId('accessibility-date')).textContent).toMatch(/15.+2027/);
  });
});

describe('the contact page', () => {
  it('gives the operator’s support contact from configuration', async () => {
    await renderScreenAt({ path: '/contact', user: makeUser() });
    expect((await screen.findByTestId('contact-name')).textContent).toBe('Support Hygie');
    expect(screen.getByTestId('contact-email').getAttribute('href')).toBe(
      'mailto:support@hygie.example',
    );
    expect(screen.getByRole('link', { name: '01 23 45 67 89' }).getAttribute('href')).toBe(
      'tel:0123456789',
    );
    expect(screen.getByRole('link', { name: 'FAQ' }).getAttribute('href')).toBe(
      'https://hygie.example/faq',
    );
  });
});
