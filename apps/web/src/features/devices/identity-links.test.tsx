import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Language } from '@hygie/domain';
import { expectNoAxeViolations } from '../../test/a11y';
import { makeUser, PUBLIC_CONFIG } from '../../test/factories';
import { apiError, json } from '../../test/fake-api';
import { renderScreen } from '../../test/render-screen';
import DevicesPage from './devices-page';

const LINKED_AT = Date.UTC(2025, 2, 1, 10);
const PSC = { provider: 'psc', linkedAt: LINKED_AT, lastUsedAt: null };

function renderDevices(
  path: string,
  handlers: Parameters<typeof renderScreen>[1]['handlers'] = {},
  language: Language = 'fr',
) {
  return renderScreen(DevicesPage, {
    path,
    language,
    user: makeUser(),
    handlers: {
      'GET /api/config': () =>
        json(200, { ...PUBLIC_CONFIG, identityProviders: ['psc', 'franceconnect'] }),
      'GET /api/devices': () => json(200, []),
      'GET /api/me/identity-links': () => json(200, { links: [PSC] }),
      ...handlers,
    },
  });
}

describe('linked identities in the account area', () => {
  it('lists the links with their dates', async () => {
    await renderDevices('/devices');
    const rows = await screen.findAllByTestId('identity-link-row');
    expect(rows).toHaveLength(1);
    expect(within(rows[0]!).getByText('Pro Santé Connect')).toBeTruthy();
    expect(within(rows[0]!).getByText(/Liée le 1 mars 2025 · jamais utilisée/)).toBeTruthy();
  });

  it('removes a link after confirmation, asking the password again when the proof is old', async () => {
    let links = [PSC];
    let proven = false;
    const { calls } = await renderDevices('/devices', {
      'GET /api/me/identity-links': () => json(200, { links }),
      'POST /api/session/reauthenticate': () => {
        proven = true;
        return json(200, { ok: true });
      },
      'DELETE /api/me/identity-links/psc': () => {
        if (!proven) return apiError(403, 'reauthentication_required');
        links = [];
        return json(200, { ok: true });
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Délier Pro Santé Connect' }));
    const dialog = await screen.findByTestId('confirm-dialog');
    expect(within(dialog).getByText(/Pro Santé Connect sans la lier de nouveau/)).toBeTruthy();
    await user.click(within(dialog).getByTestId('confirm-yes'));
    await within(dialog).findByTestId('step-up');
    await user.type(within(dialog).getByLabelText(/Mot de passe/), 'Passw0rd-1!');
    await user.click(within(dialog).getByTestId('confirm-yes'));
    expect((await screen.findByTestId('notification')).textContent).toContain('Identité déliée.');
    await screen.findByTestId('identity-links-empty');
    expect(calls.filter((call) => call.method === 'DELETE')).toHaveLength(2);
  });

  it('says why the last way to sign in cannot be removed', async () => {
    await renderDevices('/devices', {
      'DELETE /api/me/identity-links/psc': () => apiError(409, 'last_sign_in_method'),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('identity-link-remove'));
    await user.click(
      within(await screen.findByTestId('confirm-dialog')).getByTestId('confirm-yes'),
    );
    expect((await screen.findByTestId('identity-link-error')).textContent).toMatch(
      /dernier moyen de vous connecter/,
    );
  });

  it('says whether the identity was linked after proving the account', async () => {
    await renderDevices('/devices?idp_link=psc');
    expect((await screen.findByTestId('identity-link-outcome')).textContent).toMatch(
      /est maintenant liée/,
    );
  });

  it('says when the identity did not match and nothing was linked', async () => {
    await renderDevices('/devices?idp_link=franceconnect');
    expect((await screen.findByTestId('identity-link-outcome')).textContent).toMatch(
      /FranceConnect n’a pas été liée/,
    );
  });

  it.each(['fr', 'ar'] as const)(
    'passes axe in %s, the removal reachable by keyboard',
    async (language) => {
      await renderDevices('/devices?idp_link=psc', {}, language);
      const remove = await screen.findByTestId('identity-link-remove');
      await screen.findByTestId('identity-link-outcome');
      await expectNoAxeViolations();
      const user = userEvent.setup();
      for (let i = 0; i < 30 && document.activeElement !== remove; i++) await user.tab();
      expect(document.activeElement).toBe(remove);
      await user.keyboard('{Enter}');
      await screen.findByTestId('confirm-dialog');
      await waitFor(() =>
        expect(document.activeElement?.getAttribute('data-testid')).toBe('confirm-no'),
      );
    },
  );
});

describe('the login page back from an unlinked identity', () => {
  it.each(['fr', 'ar'] as const)('explains the linking in %s and passes axe', async (language) => {
    const { default: LoginPage } = await import('../auth/login-page');
    await renderScreen(LoginPage, {
      path: '/security/login?idp_link=psc',
      language,
      handlers: {
        'GET /api/config': () => json(200, { ...PUBLIC_CONFIG, identityProviders: ['psc'] }),
      },
    });
    const notice = await screen.findByTestId('idp-link');
    expect(notice.textContent).toContain('Pro Santé Connect');
    expect(notice.textContent).toMatch(language === 'fr' ? /mot de passe/ : /كلمة مرورك/);
    await expectNoAxeViolations();
  });
});
