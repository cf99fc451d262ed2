import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { elementById } from '../../test/dom';
import { makeCguStatus } from '../../test/factories';
import { apiError, json } from '../../test/fake-api';
import { renderScreenAt } from '../../test/screens';

const byId = (id: string) => elementById(id, HTMLElement);

describe('the terms ticked at sign-up', () => {
  it('sends the text shown; a newer one published meanwhile is shown to be ticked again', async () => {
    let inForce = makeCguStatus({ version: '2026-01', publishedAt: '2026-01-05' });
    const bodies: unknown[] = [];
    const { calls } = await renderScreenAt({
      path: '/security/register/patient',
      handlers: {
        'GET /api/cgu': () => json(200, inForce),
        'POST /api/register': (request) => {
          bodies.push(request.body);
          return bodies.length === 1
            ? apiError(409, 'terms_changed')
            : json(201, { email: 'marie.dupont@example.fr', status: 'active' });
        },
      },
    });
    const user = userEvent.setup();
    // The version isolated from the text around it (bidi marks), its date in words.
    await waitFor(() =>
      expect(byId('register-cgu-version').textContent).toMatch(/2026-01\u2069? du 5 janvier 2026$/),
    );
    expect(byId('register-cgu').getAttribute('aria-describedby')).toBe('register-cgu-version');
    await user.type(byId('register-email'), 'marie.dupont@example.fr');
    await user.type(byId('register-password'), 'Inscription2025x');
    await user.type(byId('register-password-confirmation'), 'Inscription2025x');
    await user.type(byId('register-last-name'), 'Dupont');
    await user.type(byId('register-first-name'), 'Marie');
    await user.type(byId('register-birth-date'), '15041985');
    await user.type(byId('register-birth-place'), '75056');
    await user.selectOptions(byId('register-sex'), 'female');
    await user.type(byId('register-phone'), '06 12 34 56 78');
    await user.click(byId('register-cgu'));

    // A new version is published while the form is open.
    inForce = makeCguStatus({
      version: '2026-02',
      publishedAt: '2026-02-01',
      hash: 'b'.repeat(64),
    });
    await user.click(screen.getByTestId('register-submit'));
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Les conditions ont changé pendant votre lecture',
    );
    expect(bodies[0]).toMatchObject({ cguVersion: '2026-01', cguHash: 'a'.repeat(64) });
    // The box is unticked, the new version named, its link opening that version.
    expect(elementById('register-cgu', HTMLInputElement).checked).toBe(false);
    await waitFor(() =>
      expect(byId('register-cgu-version').textContent).toMatch(/2026-02\u2069? du 1 février 2026$/),
    );
    expect(
      screen
        .getByRole('link', { name: 'conditions générales d’utilisation (nouvel onglet)' })
        .getAttribute('href'),
    ).toBe('/security/accept-cgu?version=2026-02');
    expect(calls.filter((call) => call.url.pathname === '/api/cgu')).toHaveLength(2);

    await user.click(byId('register-cgu'));
    await user.click(screen.getByTestId('register-submit'));
    await waitFor(() => expect(bodies).toHaveLength(2));
    expect(bodies[1]).toMatchObject({ cguVersion: '2026-02', cguHash: 'b'.repeat(64) });
  });

  it('sends the hash of the Arabic text when the form is shown in Arabic', async () => {
    const seen: string[] = [];
    await renderScreenAt({
      path: '/security/register/patient',
      language: 'ar',
      handlers: {
        'GET /api/cgu': (request) => {
          seen.push(request.url.searchParams.get('l') ?? '');
          return json(200, makeCguStatus({ language: 'ar', hash: 'c'.repeat(64) }));
        },
      },
    });
    await waitFor(() => expect(byId('register-cgu-version').textContent).toContain('2025-03'));
    expect(seen).toContain('ar');
  });
});
