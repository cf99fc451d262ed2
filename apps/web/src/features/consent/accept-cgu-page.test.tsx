import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { cguAcceptInputSchema } from '@hygie/domain';
import { elementById } from '../../test/dom';
import { makeCguStatus, makeUser } from '../../test/factories';
import { apiError, json, type FakeHandler } from '../../test/fake-api';
import { renderScreen } from '../../test/render-screen';
import AcceptCguPage from './accept-cgu-page';
import { pendingMe } from '../../test/stages';
import DashboardPage from '../dashboard/dashboard-page';

/** The screens this one hands over to, rendered for real when the test follows it there. */
const NEXT_SCREENS = { '/': DashboardPage };

const ACCEPT = /^J’ai lu et j’accepte les conditions générales d’utilisation/;
const STATUS = makeCguStatus({ acceptedVersion: '2024-01' });

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
    // The text the server holds for this version, section by section.
    expect(screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual([
      '1. Objet',
      '2. Votre compte',
    ]);
    expect(screen.getByText('Votre compte est strictement personnel.')).toBeTruthy();
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
      { version: '2025-03', hash: STATUS.hash },
    ]);
    expect(router.state.location.pathname).toBe('/');
  });

  it('shows a version published meanwhile, to be accepted again', async () => {
    // A new version is published just before the first acceptance arrives.
    let status = STATUS;
    const newer = makeCguStatus({ version: '2025-04', hash: 'b'.repeat(64) });
    const { calls } = await openCgu({
      'GET /api/cgu': () => json(200, status),
      'POST /api/cgu/accept': (request) => {
        if (cguAcceptInputSchema.parse(request.body).hash === newer.hash) {
          return json(200, makeUser());
        }
        status = newer;
        return apiError(409, 'terms_changed');
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
      { version: '2025-03', hash: STATUS.hash },
      { version: '2025-04', hash: newer.hash },
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

  it('lets a signed-in user read the version they accepted when a newer one is in force', async () => {
    const accepted = makeCguStatus({
      version: '2024-01',
      publishedAt: '2024-01-01',
      sections: [{ title: 'Ancien objet', body: 'L’ancien texte.' }],
    });
    const { router } = await openCgu(
      { 'GET /api/cgu/versions/2024-01': () => json(200, accepted) },
      false,
    );
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('cgu-accepted-version'));
    await screen.findByText('L’ancien texte.');
    expect(router.state.location.search).toBe('?version=2024-01');
    expect((await screen.findByRole('heading', { level: 2 })).textContent).toContain(
      '1 janvier 2024',
    );
  });
});
