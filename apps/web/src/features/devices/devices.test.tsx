import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeDevice } from '../../test/account-data';
import { makeUser } from '../../test/factories';
import { apiError, json } from '../../test/fake-api';
import { renderScreen } from '../../test/render-screen';
import DevicesPage from './devices-page';

const DEVICES = [
  makeDevice({ id: 'd-1', current: true }),
  makeDevice({ id: 'd-2', label: 'Safari sur iOS', ip: null }),
];

describe('my devices', () => {
  it('lists the trusted devices, the current one marked', async () => {
    await renderScreen(DevicesPage, {
      path: '/devices',
      user: makeUser(),
      handlers: { 'GET /api/devices': () => json(200, DEVICES) },
    });
    const rows = await screen.findAllByTestId('device-row');
    expect(rows).toHaveLength(2);
    expect(rows.map((row) => row.getAttribute('data-current'))).toEqual(['true', 'false']);
    expect(within(rows[0]!).getByText('Firefox sur Linux')).toBeTruthy();
    expect(within(rows[0]!).getByText('Cet appareil')).toBeTruthy();
    expect(within(rows[0]!).getByText('203.0.113.7')).toBeTruthy();
    expect(within(rows[0]!).getByText(/1 mars 2025/)).toBeTruthy();
    expect(within(rows[1]!).getByText('Inconnue')).toBeTruthy();
    expect(document.title).toBe('Mes appareils · Hygie');
  });

  it('deletes a device after confirmation, and can cancel', async () => {
    let list = DEVICES;
    const { calls } = await renderScreen(DevicesPage, {
      path: '/devices',
      user: makeUser(),
      handlers: {
        'GET /api/devices': () => json(200, list),
        'DELETE /api/devices/d-2': () => {
          list = [DEVICES[0]!];
          return json(200, { ok: true });
        },
      },
    });
    const user = userEvent.setup();
    const rows = await screen.findAllByTestId('device-row');
    await user.click(within(rows[1]!).getByTestId('device-delete'));
    const dialog = await screen.findByTestId('confirm-dialog');
    expect(within(dialog).getByText(/Safari sur iOS/)).toBeTruthy();
    await user.click(within(dialog).getByTestId('confirm-no'));
    await waitFor(() => expect(screen.queryByTestId('confirm-dialog')).toBeNull());
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);

    await user.click(within(rows[1]!).getByTestId('device-delete'));
    await user.click(
      within(await screen.findByTestId('confirm-dialog')).getByTestId('confirm-yes'),
    );
    expect((await screen.findByTestId('notification')).textContent).toContain(
      'L’appareil a été supprimé.',
    );
    await waitFor(() => expect(screen.getAllByTestId('device-row')).toHaveLength(1));
  });

  it('shows the empty state and refreshes', async () => {
    let count = 0;
    await renderScreen(DevicesPage, {
      path: '/devices',
      user: makeUser(),
      language: 'en',
      handlers: {
        'GET /api/devices': () => {
          count += 1;
          return json(200, count === 1 ? [] : [makeDevice()]);
        },
      },
    });
    expect((await screen.findByTestId('devices-empty')).textContent).toBe(
      'No trusted device is registered for your account.',
    );
    await userEvent.setup().click(screen.getByTestId('devices-refresh'));
    expect(await screen.findAllByTestId('device-row')).toHaveLength(1);
  });

  it('explains a failed load and a failed deletion', async () => {
    await renderScreen(DevicesPage, {
      path: '/devices',
      user: makeUser(),
      handlers: {
        'GET /api/devices': () => json(200, [makeDevice()]),
        'DELETE /api/devices/device-1': () => apiError(404, 'not_found'),
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('device-delete'));
    await user.click(
      within(await screen.findByTestId('confirm-dialog')).getByTestId('confirm-yes'),
    );
    expect((await screen.findByTestId('notification')).textContent).toContain(
      'L’élément demandé est introuvable.',
    );
  });

  it('explains a list that cannot be loaded', async () => {
    const { i18n } = await renderScreen(DevicesPage, {
      path: '/devices',
      user: makeUser(),
      language: 'ar',
      handlers: { 'GET /api/devices': () => apiError(403, 'forbidden') },
    });
    expect((await screen.findByTestId('form-error')).textContent).toBe(i18n.t('errors:forbidden'));
    expect(i18n.t('errors:forbidden')).toMatch(/[\u0600-\u06FF]/);
  });
});
