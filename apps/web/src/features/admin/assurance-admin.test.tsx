import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { AssuranceMapping, RequiredLevel } from '@hygie/domain';
import { A11Y_VARIANTS, expectNoAxeViolations } from '../../test/a11y';
import { SETTINGS } from '../../test/account-data';
import { makeUser } from '../../test/factories';
import { apiError, json, type FakeHandler } from '../../test/fake-api';
import { renderScreen } from '../../test/render-screen';
import AppSettingsPage from './app-settings-page';

// The levels of assurance in the admin screens (issue #20): a platform's minimum level, chosen
// when it is registered and changed in the list, and the account area's minimum level.

const admin = makeUser({ roles: ['admin'] });

const platform = (name: string, id: string, minimumLevel: RequiredLevel | null = null) => ({
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
  minimumLevel,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});

const MAPPING: AssuranceMapping = {
  low: [['pwd', 'otp']],
  substantial: [
    ['pwd', 'totp'],
    ['hwk', 'user'],
  ],
  high: [['psc:eidas3']],
};

const assuranceSettings = (accountMinimumLevel: RequiredLevel | null) => ({
  accountMinimumLevel,
  mapping: MAPPING,
  defaultMapping: MAPPING,
});

function open(
  tab: 'settings' | 'platforms',
  handlers: Record<string, FakeHandler>,
  language: 'fr' | 'en' | 'ar' = 'fr',
  brand: 'hygie' | 'telecare' = 'hygie',
) {
  return renderScreen(AppSettingsPage, {
    path: tab === 'settings' ? '/app-settings' : '/app-settings?tab=platforms',
    at: '/app-settings',
    user: admin,
    language,
    brand,
    handlers: {
      'GET /api/admin/settings': () => json(200, SETTINGS),
      'GET /api/admin/settings/assurance': () => json(200, assuranceSettings(null)),
      ...handlers,
    },
  });
}

describe('platforms tab: the minimum level', () => {
  it('shows each platform’s level and registers one with the level chosen', async () => {
    const bodies: unknown[] = [];
    await open('platforms', {
      'GET /api/admin/platforms': () =>
        json(200, {
          platforms: [platform('Télésuivi', 'ts'), platform('Imagerie', 'im', 'substantial')],
        }),
      'POST /api/admin/platforms': (request) => {
        bodies.push(request.body);
        return json(201, { ...platform('Dossier', 'do', 'high'), clientSecret: 's3cr3t' });
      },
    });
    const rows = await screen.findAllByTestId('platform-row');
    const levels = rows.map((row) => within(row).getByTestId<HTMLSelectElement>('platform-level'));
    expect(levels.map((select) => select.value)).toEqual(['none', 'substantial']);
    expect(levels[1]?.selectedOptions[0]?.textContent).toBe('Substantiel');
    expect(screen.getByRole('combobox', { name: 'Niveau minimum de Imagerie' })).toBe(levels[1]);

    const user = userEvent.setup();
    const select = screen.getByLabelText<HTMLSelectElement>(/^Niveau minimum$/);
    expect([...select.options].map((o) => o.textContent)).toEqual([
      'Aucun',
      'Faible',
      'Substantiel',
      'Élevé',
    ]);
    await user.type(screen.getByLabelText(/^Nom/), 'Dossier');
    await user.type(screen.getByLabelText(/^Adresse de la plateforme/), 'https://do.example.fr');
    await user.type(screen.getByLabelText(/^Adresse de retour/), 'https://do.example.fr/cb');
    await user.selectOptions(select, 'high');
    await user.click(screen.getByTestId('platform-submit'));
    await screen.findByTestId('platform-secret');
    expect(bodies).toEqual([
      {
        name: 'Dossier',
        url: 'https://do.example.fr',
        redirectUris: ['https://do.example.fr/cb'],
        accessPolicy: 'open',
        public: false,
        minimumLevel: 'high',
      },
    ]);
  });

  it('changes a platform’s level from the list, and back to none', async () => {
    const patches: unknown[] = [];
    let current: RequiredLevel | null = null;
    await open('platforms', {
      'GET /api/admin/platforms': () =>
        json(200, { platforms: [platform('Télésuivi', 'ts', current)] }),
      'PATCH /api/admin/platforms/ts': (request) => {
        patches.push(request.body);
        current = current === null ? 'substantial' : null;
        return json(200, platform('Télésuivi', 'ts', current));
      },
    });
    const user = userEvent.setup();
    const select = await screen.findByTestId<HTMLSelectElement>('platform-level');
    await user.selectOptions(select, 'substantial');
    expect((await screen.findByTestId('notification')).textContent).toContain(
      'Niveau minimum de Télésuivi enregistré',
    );
    await waitFor(() => expect(select.value).toBe('substantial'));
    await user.selectOptions(select, 'none');
    await waitFor(() =>
      expect(patches).toEqual([{ minimumLevel: 'substantial' }, { minimumLevel: null }]),
    );
  });

  it('says why the server refused a level', async () => {
    await open('platforms', {
      'GET /api/admin/platforms': () => json(200, { platforms: [platform('Télésuivi', 'ts')] }),
      'PATCH /api/admin/platforms/ts': () =>
        apiError(400, 'validation_error', {
          fields: [{ path: 'minimumLevel', message: 'choice_invalid', text: 'x' }],
        }),
    });
    const user = userEvent.setup();
    await user.selectOptions(await screen.findByTestId('platform-level'), 'high');
    expect((await screen.findByTestId('notification')).textContent).toContain(
      'Certaines informations sont invalides',
    );
  });
});

describe('settings tab: the account area’s minimum level', () => {
  it('shows the level in force and saves another', async () => {
    const puts: unknown[] = [];
    await open('settings', {
      'GET /api/admin/settings/assurance': () => json(200, assuranceSettings('low')),
      'PUT /api/admin/settings/assurance': (request) => {
        puts.push(request.body);
        return json(200, assuranceSettings('substantial'));
      },
    });
    const section = await screen.findByTestId('assurance-setting');
    expect(within(section).getByRole('heading').textContent).toBe(
      'Niveau de sécurité de l’espace personnel',
    );
    const select = await within(section).findByLabelText<HTMLSelectElement>(
      'Niveau minimum de l’espace personnel',
    );
    expect(select.value).toBe('low');
    const save = within(section).getByTestId('account-minimum-save');
    expect(save).toHaveProperty('disabled', true);
    const user = userEvent.setup();
    await user.selectOptions(select, 'substantial');
    await user.click(save);
    expect((await screen.findByTestId('notification')).textContent).toContain(
      'Modifié avec succès',
    );
    expect(puts).toEqual([{ accountMinimumLevel: 'substantial' }]);
  });

  it('shows a refusal in the section', async () => {
    await open('settings', {
      'PUT /api/admin/settings/assurance': () => apiError(400, 'validation_error', { fields: [] }),
    });
    const user = userEvent.setup();
    const section = await screen.findByTestId('assurance-setting');
    await user.selectOptions(await within(section).findByTestId('account-minimum-level'), 'high');
    await user.click(within(section).getByTestId('account-minimum-save'));
    expect((await within(section).findByTestId('form-error')).textContent).toContain(
      'Certaines informations sont invalides',
    );
  });
});

describe.each(A11Y_VARIANTS.filter((variant) => variant.axe))(
  'the levels in the admin screens, in $language with the $brand brand',
  ({ language, brand }) => {
    it('platforms tab and settings tab pass axe', async () => {
      const view = await open(
        'platforms',
        {
          'GET /api/admin/platforms': () =>
            json(200, { platforms: [platform('Imagerie', 'im', 'substantial')] }),
        },
        language,
        brand,
      );
      await screen.findByTestId('platform-level');
      await expectNoAxeViolations();
      view.unmount();
      await open('settings', {}, language, brand);
      await screen.findByTestId('account-minimum-level');
      await expectNoAxeViolations();
    });
  },
);
