import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Language } from '@hygie/domain';
import { expectNoAxeViolations } from '../../test/a11y';
import { typeCode } from '../../test/code';
import { makeUser, PUBLIC_CONFIG } from '../../test/factories';
import { apiError, json } from '../../test/fake-api';
import { renderScreen } from '../../test/render-screen';
import DevicesPage from './devices-page';
import { recoveryCodesText } from '../../components/recovery-codes-dialog';

// "My devices": the recovery codes (issue #20) — how many remain, a new set behind the step-up,
// shown once with download and print, closed once the user says they saved them; the first set
// shown the same way after the authenticator app's enrolment.

const CODES = Array.from({ length: 10 }, (_, i) => `ABCD-EFGH-${String(1000 + i)}`);
const CREATED_AT = Date.UTC(2026, 10, 2, 10);

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
      'GET /api/me/recovery-codes': () => json(200, { remaining: 0, createdAt: null }),
      ...handlers,
    },
  });
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('recovery codes in the account area', () => {
  it('writes a text file of the codes, one a line', () => {
    expect(recoveryCodesText('Codes', ['A', 'B'], '2 novembre 2026')).toBe(
      'Codes\n2 novembre 2026\n\nA\nB\n',
    );
  });

  it('says how many remain, and generates a new set after the step-up, shown once', async () => {
    let proven = false;
    let made = false;
    await renderDevices({
      'GET /api/me/recovery-codes': () =>
        json(
          200,
          made ? { remaining: 10, createdAt: CREATED_AT } : { remaining: 3, createdAt: CREATED_AT },
        ),
      'POST /api/session/reauthenticate': () => {
        proven = true;
        return json(200, { ok: true });
      },
      'POST /api/me/recovery-codes': () => {
        if (!proven) return apiError(403, 'reauthentication_required');
        made = true;
        return json(200, { codes: CODES });
      },
    });
    expect((await screen.findByTestId('recovery-codes-status')).textContent).toBe(
      'Il vous reste 3 codes de secours (créés le 2 novembre 2026).',
    );
    const print = vi.spyOn(window, 'print').mockImplementation(() => undefined);
    const user = userEvent.setup();
    await user.click(screen.getByTestId('recovery-codes-generate'));
    const confirm = await screen.findByTestId('confirm-dialog');
    await user.click(within(confirm).getByTestId('confirm-yes'));
    await within(confirm).findByTestId('step-up');
    await user.type(within(confirm).getByLabelText(/Mot de passe/), 'Passw0rd-1!');
    await user.click(within(confirm).getByTestId('confirm-yes'));

    const dialog = await screen.findByTestId('recovery-codes-dialog');
    const items = within(within(dialog).getByTestId('recovery-codes-list')).getAllByRole(
      'listitem',
    );
    expect(items.map((li) => li.textContent)).toEqual(CODES);
    await user.click(within(dialog).getByTestId('recovery-codes-print'));
    expect(print).toHaveBeenCalledTimes(1);
    // Not closed before the user says the codes are saved.
    const done = within(dialog).getByTestId<HTMLButtonElement>('recovery-codes-done');
    expect(done.disabled).toBe(true);
    await user.keyboard('{Escape}');
    expect(screen.getByTestId('recovery-codes-dialog')).toBeTruthy();
    await user.click(within(dialog).getByLabelText('J’ai enregistré mes codes de secours'));
    await user.click(done);
    await waitFor(() => expect(screen.queryByTestId('recovery-codes-dialog')).toBeNull());
    await waitFor(() =>
      expect(screen.getByTestId('recovery-codes-status').textContent).toContain('10 codes'),
    );
  });

  it('downloads the codes as a text file', async () => {
    await renderDevices({
      'GET /api/me/recovery-codes': () => json(200, { remaining: 10, createdAt: CREATED_AT }),
      'POST /api/me/recovery-codes': () => json(200, { codes: CODES }),
    });
    const blobs: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      if (blob instanceof Blob) blobs.push(blob);
      return 'blob:codes';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('recovery-codes-generate'));
    await user.click(
      within(await screen.findByTestId('confirm-dialog')).getByTestId('confirm-yes'),
    );
    const dialog = await screen.findByTestId('recovery-codes-dialog');
    await user.click(within(dialog).getByTestId('recovery-codes-download'));
    expect(clicked).toHaveBeenCalledTimes(1);
    const blob = blobs[0];
    if (!blob) throw new Error('no file was made');
    expect(blob.type).toBe('text/plain');
    const text = await new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result : '');
      reader.readAsText(blob);
    });
    for (const code of CODES) expect(text).toContain(code);
  });

  it('says when none remain, and shows the first set after enrolling the authenticator app', async () => {
    const uri =
      'otpauth://totp/Hygie:jeanne%40example.fr?issuer=Hygie&secret=JBSWY3DPEHPK3PXP&algorithm=SHA1&digits=6&period=30';
    await renderDevices({
      'GET /api/me/recovery-codes': () => json(200, { remaining: 0, createdAt: CREATED_AT }),
      'POST /api/me/totp': () => json(200, { otpauthUri: uri }),
      'POST /api/me/totp/confirm': () =>
        json(200, { enabled: true, enabledAt: CREATED_AT, recoveryCodes: CODES }),
    });
    expect((await screen.findByTestId('recovery-codes-empty')).textContent).toContain(
      'créez-en de nouveaux',
    );
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('totp-add'));
    const enrol = await screen.findByTestId('confirm-dialog');
    await user.click(within(enrol).getByTestId('confirm-yes'));
    await within(enrol).findByTestId('totp-key');
    await typeCode(user, '123456');
    await user.click(within(enrol).getByTestId('confirm-yes'));
    const dialog = await screen.findByTestId('recovery-codes-dialog');
    expect(within(dialog).getByTestId('recovery-codes-list').textContent).toContain(CODES[0]);
  });

  it.each(['fr', 'ar'] as const)('passes axe in %s, the codes shown too', async (language) => {
    await renderDevices(
      {
        'GET /api/me/recovery-codes': () => json(200, { remaining: 4, createdAt: CREATED_AT }),
        'POST /api/me/recovery-codes': () => json(200, { codes: CODES }),
      },
      language,
    );
    await screen.findByTestId('recovery-codes-status');
    await expectNoAxeViolations();
    const user = userEvent.setup();
    await user.click(screen.getByTestId('recovery-codes-generate'));
    await user.click(
      within(await screen.findByTestId('confirm-dialog')).getByTestId('confirm-yes'),
    );
    await screen.findByTestId('recovery-codes-dialog');
    await expectNoAxeViolations();
  });
});
