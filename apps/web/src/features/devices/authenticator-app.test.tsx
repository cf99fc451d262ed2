import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Language } from '@hygie/domain';
import { expectNoAxeViolations } from '../../test/a11y';
import { typeCode } from '../../test/code';
import { makeUser, PUBLIC_CONFIG } from '../../test/factories';
import { apiError, json } from '../../test/fake-api';
import { renderScreen } from '../../test/render-screen';
import { groupedKey } from './authenticator-app';
import DevicesPage from './devices-page';

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const URI = `otpauth://totp/Hygie:jeanne%40example.fr?issuer=Hygie&secret=${SECRET}&algorithm=SHA1&digits=6&period=30`;
const ENABLED_AT = Date.UTC(2026, 10, 2, 10);

function renderDevices(
  handlers: Parameters<typeof renderScreen>[1]['handlers'] = {},
  language: Language = 'fr',
) {
  return renderScreen(DevicesPage, {
    path: '/devices',
    language,
    user: makeUser(),
    handlers: {
      'GET /api/config': () => json(200, PUBLIC_CONFIG),
      'GET /api/devices': () => json(200, []),
      'GET /api/me/identity-links': () => json(200, { links: [] }),
      'GET /api/me/totp': () => json(200, { enabled: false, enabledAt: null }),
      ...handlers,
    },
  });
}

describe('the authenticator app in the account area', () => {
  it('groups the key by 4 for typing', () => {
    expect(groupedKey(URI)).toBe('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP');
  });

  it('enrols after the step-up: QR code with a text alternative, the key, then a first code', async () => {
    let proven = false;
    let enabled = false;
    const { calls } = await renderDevices({
      'GET /api/me/totp': () => json(200, { enabled, enabledAt: enabled ? ENABLED_AT : null }),
      'POST /api/session/reauthenticate': () => {
        proven = true;
        return json(200, { ok: true });
      },
      'POST /api/me/totp': () =>
        proven ? json(200, { otpauthUri: URI }) : apiError(403, 'reauthentication_required'),
      'POST /api/me/totp/confirm': () => {
        enabled = true;
        return json(200, { enabled: true, enabledAt: ENABLED_AT });
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('totp-add'));
    const dialog = await screen.findByTestId('confirm-dialog');
    await user.click(within(dialog).getByTestId('confirm-yes'));
    await within(dialog).findByTestId('step-up');
    await user.type(within(dialog).getByLabelText(/Mot de passe/), 'Passw0rd-1!');
    await user.click(within(dialog).getByTestId('confirm-yes'));
    const qr = await within(dialog).findByTestId('totp-qr');
    expect(qr.getAttribute('alt')).toMatch(/QR code à scanner/);
    expect(qr.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    expect(within(dialog).getByTestId('totp-key').textContent).toBe(groupedKey(URI));
    await typeCode(user, '123456');
    await user.click(within(dialog).getByTestId('confirm-yes'));
    expect((await screen.findByTestId('notification')).textContent).toContain(
      'L’application d’authentification est activée.',
    );
    expect((await screen.findByTestId('totp-status')).textContent).toMatch(/Activée depuis le/);
    expect(
      calls.filter((c) => c.url.pathname === '/api/me/totp/confirm').map((c) => c.body),
    ).toEqual([{ code: '123456' }]);
  });

  it('shows a wrong first code and keeps the dialog open', async () => {
    await renderDevices({
      'POST /api/me/totp': () => json(200, { otpauthUri: URI }),
      'POST /api/me/totp/confirm': () => apiError(400, 'wrong_code', { remainingAttempts: 4 }),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('totp-add'));
    const dialog = await screen.findByTestId('confirm-dialog');
    await user.click(within(dialog).getByTestId('confirm-yes'));
    await within(dialog).findByTestId('totp-key');
    await typeCode(user, '000000');
    await user.click(within(dialog).getByTestId('confirm-yes'));
    expect((await within(dialog).findByTestId('totp-error')).textContent).not.toBe('');
  });

  it('removes it after confirmation', async () => {
    let enabled = true;
    await renderDevices({
      'GET /api/me/totp': () => json(200, { enabled, enabledAt: enabled ? ENABLED_AT : null }),
      'DELETE /api/me/totp': () => {
        enabled = false;
        return json(200, { ok: true });
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('totp-remove'));
    const dialog = await screen.findByTestId('confirm-dialog');
    await user.click(within(dialog).getByTestId('confirm-yes'));
    await screen.findByTestId('totp-add');
  });

  it.each(['fr', 'ar'] as const)(
    'passes axe in %s, enrolment reachable by keyboard',
    async (language) => {
      await renderDevices({ 'POST /api/me/totp': () => json(200, { otpauthUri: URI }) }, language);
      const add = await screen.findByTestId('totp-add');
      await expectNoAxeViolations();
      const user = userEvent.setup();
      for (let i = 0; i < 30 && document.activeElement !== add; i++) await user.tab();
      expect(document.activeElement).toBe(add);
      await user.keyboard('{Enter}');
      const dialog = await screen.findByTestId('confirm-dialog');
      await user.click(within(dialog).getByTestId('confirm-yes'));
      await within(dialog).findByTestId('totp-qr');
      await waitFor(() => expect(within(dialog).getAllByRole('textbox').length).toBeGreaterThan(0));
      await expectNoAxeViolations();
    },
  );
});
