import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../test/factories';
import { apiError, json, type FakeHandler } from '../../test/fake-api';
import { renderScreen } from '../../test/render-screen';
import AppSettingsPage from './app-settings-page';

const admin = makeUser({ roles: ['admin'] });
const platform = (name: string, id = name) => ({
  id,
  clientId: `client-${id}`,
  public: false,
  name,
  description: null,
  url: 'https://tele.example.fr',
  logoUrl: null,
  redirectUris: ['https://tele.example.fr/cb'],
  postLogoutRedirectUris: [],
  backchannelLogoutUri: null,
  accessPolicy: 'open',
  firstParty: true,
  minimumLevel: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});

function open(handlers: Record<string, FakeHandler>, language: 'fr' | 'ar' = 'fr') {
  return renderScreen(AppSettingsPage, {
    path: '/app-settings?tab=platforms',
    user: admin,
    language,
    handlers,
  });
}

describe('platforms tab', () => {
  it('lists the platforms and registers one, showing its secret once', async () => {
    const bodies: unknown[] = [];
    await open({
      'GET /api/admin/platforms': () => json(200, { platforms: [platform('Télésuivi')] }),
      'POST /api/admin/platforms': (request) => {
        bodies.push(request.body);
        return json(201, { ...platform('Téléconsultation', 'tc'), clientSecret: 's3cr3t-value' });
      },
    });
    const rows = await screen.findAllByTestId('platform-row');
    expect(rows.map((r) => r.getAttribute('data-platform-name'))).toEqual(['Télésuivi']);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/^Nom/), 'Téléconsultation');
    await user.type(screen.getByLabelText(/^Adresse de la plateforme/), 'https://tc.example.fr');
    await user.type(screen.getByLabelText(/^Adresse de retour/), 'https://tc.example.fr/cb');
    const backchannel = screen.getByLabelText(/^Adresse de déconnexion côté serveur/);
    const help = document.getElementById(backchannel.getAttribute('aria-describedby') ?? '');
    expect(help?.textContent).toContain('prévenue quand l’utilisateur se déconnecte');
    await user.type(backchannel, 'https://tc.example.fr/logout');
    await user.selectOptions(screen.getByLabelText(/^Accès/), 'on_request');
    await user.click(screen.getByTestId('platform-submit'));
    expect((await screen.findByTestId('platform-secret')).textContent).toContain('s3cr3t-value');
    expect(screen.getByTestId('platform-created').textContent).toContain(
      'il ne sera plus jamais affiché',
    );
    expect(bodies).toEqual([
      {
        name: 'Téléconsultation',
        url: 'https://tc.example.fr',
        redirectUris: ['https://tc.example.fr/cb'],
        backchannelLogoutUri: 'https://tc.example.fr/logout',
        accessPolicy: 'on_request',
        public: false,
      },
    ]);
  });

  it('deletes a platform after confirmation, and shows a refused registration', async () => {
    const deleted: string[] = [];
    await open({
      'GET /api/admin/platforms': () => json(200, { platforms: [platform('Télésuivi', 'ts')] }),
      'DELETE /api/admin/platforms/ts': () => {
        deleted.push('ts');
        return json(200, { ok: true });
      },
      'POST /api/admin/platforms': () => apiError(400, 'validation_error', { fields: [] }),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('platform-delete'));
    const dialog = await screen.findByTestId('confirm-dialog');
    await user.click(within(dialog).getByTestId('confirm-yes'));
    await waitFor(() => expect(deleted).toEqual(['ts']));
    await user.type(screen.getByLabelText(/^Nom/), 'X');
    await user.type(screen.getByLabelText(/^Adresse de la plateforme/), 'https://x.example.fr');
    await user.type(screen.getByLabelText(/^Adresse de retour/), 'https://x.example.fr/cb');
    await user.click(screen.getByTestId('platform-submit'));
    expect((await screen.findByTestId('form-error')).textContent).toContain(
      'Certaines informations sont invalides',
    );
  });
});
