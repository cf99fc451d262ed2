import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { CGU, SERVICES, SUPPORT } from '../../test/account-data';
import { makeUser } from '../../test/factories';
import { apiError, json, type FakeHandler } from '../../test/fake-api';
import { renderScreen } from '../../test/render-screen';
import ServicesPage from './services-page';

const HANDLERS: Record<string, FakeHandler> = {
  'GET /api/services': () => json(200, SERVICES),
  'GET /api/support': () => json(200, SUPPORT),
  'GET /api/cgu': () => json(200, CGU),
};

describe('my services', () => {
  it('shows my platforms and the available ones with their actions', async () => {
    await renderScreen(ServicesPage, { path: '/services', user: makeUser(), handlers: HANDLERS });
    const cards = await screen.findAllByTestId('service-card');
    expect(cards.map((card) => card.getAttribute('data-service-name'))).toEqual([
      'Téléconsultation',
      'Dossier partagé',
      'Imagerie',
    ]);
    const access = within(cards[0]!).getByTestId('service-access');
    expect(access.getAttribute('href')).toBe('https://tele.example.fr');
    expect(access.getAttribute('target')).toBe('_blank');
    expect(access.getAttribute('rel')).toContain('noopener');
    expect(within(cards[1]!).getByTestId('service-enable').textContent).toBe('Activer');
    expect(within(cards[2]!).queryByTestId('service-enable')).toBeNull();
    expect(within(cards[2]!).getByText('Demande en attente')).toBeTruthy();
    expect(screen.getByTestId('terms-version').textContent).toBe(
      'Conditions générales d’utilisation en vigueur : version 2025-03 du 1 mars 2025.',
    );
  });

  it('shows each platform with its logo or its initial, its description and its standing', async () => {
    const withLogo = {
      ...SERVICES.services[0]!,
      id: 'p-9',
      name: 'Kiné',
      logoUrl: 'https://kine.example.fr/logo.png',
      description: 'Rééducation',
    };
    await renderScreen(ServicesPage, {
      path: '/services',
      user: makeUser(),
      handlers: {
        ...HANDLERS,
        'GET /api/services': () => json(200, { services: [...SERVICES.services, withLogo] }),
      },
    });
    const cards = await screen.findAllByTestId('service-card');
    const byName = (name: string) =>
      cards.find((card) => card.getAttribute('data-service-name') === name)!;
    const tele = byName('Téléconsultation');
    expect(within(tele).getByTestId('service-logo').textContent).toBe('T');
    expect(within(tele).getByText('Consultations vidéo')).toBeTruthy();
    expect(within(tele).getByTestId('service-status').textContent).toBe('Disponible');
    expect(within(byName('Dossier partagé')).getByTestId('service-status').textContent).toBe(
      'Prêt à activer',
    );
    expect(within(byName('Imagerie')).getByTestId('service-status').textContent).toBe(
      'Demande en attente',
    );
    const logo = within(byName('Kiné')).getByTestId('service-logo');
    expect(logo.querySelector('img')?.getAttribute('src')).toBe('https://kine.example.fr/logo.png');
    expect(logo.getAttribute('aria-hidden')).toBe('true');
  });

  it('enables a service on request', async () => {
    const { calls } = await renderScreen(ServicesPage, {
      path: '/services',
      user: makeUser(),
      language: 'en',
      handlers: {
        ...HANDLERS,
        'POST /api/services/p-2/enable': () =>
          json(200, {
            platformId: 'p-2',
            userId: 'user-1',
            status: 'enabled',
            usable: true,
            action: 'open',
          }),
      },
    });
    await userEvent.setup().click(await screen.findByTestId('service-enable'));
    expect((await screen.findByTestId('notification')).textContent).toContain(
      'The Dossier partagé service is enabled.',
    );
    expect(calls.some((call) => call.url.pathname === '/api/services/p-2/enable')).toBe(true);
  });

  it('says why a service cannot be enabled', async () => {
    await renderScreen(ServicesPage, {
      path: '/services',
      user: makeUser(),
      handlers: { ...HANDLERS, 'POST /api/services/p-2/enable': () => apiError(403, 'forbidden') },
    });
    await userEvent.setup().click(await screen.findByTestId('service-enable'));
    expect((await screen.findByTestId('notification')).textContent).toContain(
      'Vous n’avez pas l’autorisation d’effectuer cette action.',
    );
  });

  it('opens the support dialog with every contact', async () => {
    await renderScreen(ServicesPage, { path: '/services', user: makeUser(), handlers: HANDLERS });
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('support-open'));
    const dialog = await screen.findByTestId('support-dialog');
    await within(dialog).findByText('Support Hygie');
    expect(
      within(dialog).getByRole('link', { name: 'support@hygie.example' }).getAttribute('href'),
    ).toBe('mailto:support@hygie.example');
    expect(within(dialog).getByRole('link', { name: '01 23 45 67 89' }).getAttribute('href')).toBe(
      'tel:0123456789',
    );
    expect(within(dialog).getByRole('link', { name: 'FAQ' }).getAttribute('href')).toBe(
      'https://hygie.example/faq',
    );
    expect(within(dialog).getByText('1 rue de la Santé, 75014 Paris')).toBeTruthy();
    expect(within(dialog).getByRole('link', { name: 'https://hygie.example' })).toBeTruthy();
  });

  it('explains a list that cannot be loaded', async () => {
    await renderScreen(ServicesPage, {
      path: '/services',
      user: makeUser(),
      language: 'en',
      handlers: { ...HANDLERS, 'GET /api/services': () => apiError(403, 'forbidden') },
    });
    expect((await screen.findByTestId('form-error')).textContent).toBe(
      'You are not allowed to do this.',
    );
  });
});
