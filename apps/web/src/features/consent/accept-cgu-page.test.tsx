import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { i18n as I18n } from 'i18next';
import { describe, expect, it } from 'vitest';
import { cguAcceptInputSchema, LANGUAGES } from '@hygie/domain';
import { createI18n } from '../../app/i18n';
import { elementById } from '../../test/dom';
import { makeUser } from '../../test/factories';
import { apiError, json, type FakeHandler } from '../../test/fake-api';
import { renderScreen } from '../../test/render-screen';
import AcceptCguPage from './accept-cgu-page';
import { pendingMe } from '../../test/stages';
import { CGU_SECTIONS } from './cgu-sections';
import DashboardPage from '../dashboard/dashboard-page';

/** The screens this one hands over to, rendered for real when the test follows it there. */
const NEXT_SCREENS = { '/': DashboardPage };

const ACCEPT = /^J’ai lu et j’accepte les conditions générales d’utilisation/;
const STATUS = { version: '2025-03', publishedAt: '2025-03-01', acceptedVersion: '2024-01' };

function openCgu(handlers: Record<string, FakeHandler> = {}, pending = true) {
  return renderScreen(AcceptCguPage, {
    also: NEXT_SCREENS,
    path: '/security/accept-cgu',
    ...(pending && { me: pendingMe('cgu_not_accepted') }),
    handlers: {
      'GET /api/cgu': () => json(200, STATUS),
      'POST /api/cgu/accept': () => json(200, makeUser()),
      ...handlers,
    },
  });
}

describe('terms of use', () => {
  it('shows the terms titled with their version and date', async () => {
    await openCgu();
    expect((await screen.findByRole('heading', { level: 2 })).textContent).toBe(
      'Conditions générales d’utilisation — version \u20682025-03\u2069 du 1 mars 2025',
    );
    expect(screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual([
      '1. Objet',
      '2. Votre compte',
      '3. Sécurité de l’accès',
      '4. Données personnelles',
      '5. Urgences et avis médical',
      '6. Disponibilité',
      '7. Évolution des conditions',
    ]);
  });

  it('requires the box to be ticked', async () => {
    const { calls } = await openCgu();
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('cgu-submit'));
    expect(
      await screen.findByText('Vous devez accepter les conditions générales d’utilisation.'),
    ).toBeTruthy();
    expect(document.getElementById('cgu-accept')?.getAttribute('aria-invalid')).toBe('true');
    expect(calls.some((call) => call.url.pathname === '/api/cgu/accept')).toBe(false);
  });

  it('accepts the version shown, then signs in', async () => {
    const { calls, router } = await openCgu();
    const user = userEvent.setup();
    await user.click(await screen.findByLabelText(ACCEPT));
    expect(elementById('cgu-accept', HTMLInputElement).checked).toBe(true);
    await user.click(screen.getByTestId('cgu-submit'));
    await screen.findByRole('heading', { level: 1, name: 'Tableau de bord' });
    expect(calls.filter((c) => c.url.pathname === '/api/cgu/accept').map((c) => c.body)).toEqual([
      { version: '2025-03' },
    ]);
    expect(router.state.location.pathname).toBe('/');
  });

  it('shows a version published meanwhile, to be accepted again', async () => {
    // A new version is published just before the first acceptance arrives.
    let version = STATUS.version;
    const { calls } = await openCgu({
      'GET /api/cgu': () => json(200, { ...STATUS, version }),
      'POST /api/cgu/accept': (request) => {
        if (cguAcceptInputSchema.parse(request.body).version === '2025-04') {
          return json(200, makeUser());
        }
        version = '2025-04';
        return apiError(400, 'validation_error', {
          fields: [{ path: 'version', message: 'cgu_must_be_accepted' }],
        });
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByLabelText(ACCEPT));
    await user.click(screen.getByTestId('cgu-submit'));
    expect((await screen.findByTestId('form-error')).textContent).toBe(
      'Une nouvelle version des conditions vient d’être publiée. Lisez-la, puis acceptez-la.',
    );
    await screen.findByText(/version \u20682025-04\u2069/);
    expect(elementById('cgu-accept', HTMLInputElement).checked).toBe(false);
    await user.click(screen.getByLabelText(ACCEPT));
    await user.click(screen.getByTestId('cgu-submit'));
    await screen.findByRole('heading', { level: 1, name: 'Tableau de bord' });
    expect(calls.filter((c) => c.url.pathname === '/api/cgu/accept').map((c) => c.body)).toEqual([
      { version: '2025-03' },
      { version: '2025-04' },
    ]);
  });

  it('explains a failure', async () => {
    await openCgu({ 'POST /api/cgu/accept': () => apiError(503, 'service_unavailable') });
    const user = userEvent.setup();
    await user.click(await screen.findByLabelText(ACCEPT));
    await user.click(screen.getByTestId('cgu-submit'));
    expect((await screen.findByTestId('form-error')).textContent).toBe(
      'Le service est momentanément indisponible. Veuillez réessayer plus tard.',
    );
  });

  it('lets anyone read them, without the acceptance form', async () => {
    await openCgu({}, false);
    await screen.findByRole('heading', { level: 2 });
    expect(
      screen.getByText('Voici les conditions générales d’utilisation du portail.'),
    ).toBeTruthy();
    expect(screen.queryByTestId('cgu-submit')).toBeNull();
  });

  it.each(LANGUAGES)('has every section of the terms in %s', async (language) => {
    const i18n: I18n = await createI18n(language);
    for (const id of CGU_SECTIONS) {
      for (const part of ['title', 'body']) {
        expect(i18n.exists(`security:cgu.terms.${id}.${part}`), `${id}.${part}`).toBe(true);
      }
    }
  });
});
