import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { SERVICES, SUPPORT } from '../../test/account-data';
import { expectNoAxeViolations } from '../../test/a11y';
import { makeCguStatus, makeUser } from '../../test/factories';
import { json, type FakeHandler } from '../../test/fake-api';
import { renderScreen } from '../../test/render-screen';
import AcceptCguPage from '../consent/accept-cgu-page';
import ServicesPage from './services-page';

const handlers = (acceptedVersion: string): Record<string, FakeHandler> => ({
  'GET /api/services': () => json(200, SERVICES),
  'GET /api/support': () => json(200, SUPPORT),
  'GET /api/cgu': () => json(200, makeCguStatus({ version: '2026-11', acceptedVersion })),
  'GET /api/cgu/versions/2025-03': () =>
    json(
      200,
      makeCguStatus({
        version: '2025-03',
        sections: [{ title: 'Ancien objet', body: 'Le texte accepté en 2025.' }],
      }),
    ),
});

function open(acceptedVersion: string, language: 'fr' | 'ar' = 'fr') {
  return renderScreen(ServicesPage, {
    path: '/services',
    user: makeUser(),
    language,
    handlers: handlers(acceptedVersion),
    also: { '/security/accept-cgu': AcceptCguPage },
  });
}

describe('the legal notices and terms of the services page', () => {
  it('links to every legal page and to the terms in force', async () => {
    await open('2026-11');
    const section = await screen.findByRole('region', {
      name: 'Mentions légales et conditions d’utilisation',
    });
    await within(section).findByTestId('terms-read');
    const links = within(section).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      [
        'Lire les conditions générales d’utilisation en vigueur',
        '/security/accept-cgu?version=2026-11',
      ],
      ['Mentions légales', '/legal-notice'],
      ['Données personnelles', '/privacy'],
      ['Accessibilité : non conforme', '/accessibility'],
      ['Contact', '/contact'],
    ]);
    // The version accepted is the one in force: no second link to it.
    expect(within(section).queryByTestId('terms-accepted')).toBeNull();
    await expectNoAxeViolations();
  });

  it('lets the user read the older version they accepted, signed in', async () => {
    const { router } = await open('2025-03');
    const accepted = await screen.findByTestId('terms-accepted');
    expect(accepted.getAttribute('href')).toBe('/security/accept-cgu?version=2025-03');
    await userEvent.setup().click(accepted);
    await screen.findByText('Le texte accepté en 2025.');
    expect(router.state.location.pathname).toBe('/security/accept-cgu');
    expect(router.state.location.search).toBe('?version=2025-03');
  });

  it('is right to left in Arabic, without axe violations', async () => {
    await open('2025-03', 'ar');
    await screen.findByTestId('terms-accepted');
    expect(document.documentElement.getAttribute('dir')).toBe('rtl');
    expect(screen.getByTestId('terms-read').textContent).toBe('اقرأ شروط الاستخدام السارية');
    await expectNoAxeViolations();
  });
});
