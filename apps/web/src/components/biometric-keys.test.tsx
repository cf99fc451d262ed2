import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startRegistration } from '@simplewebauthn/browser';
import type { Language } from '@hygie/domain';
import { z } from 'zod';
import { AppProviders } from '../app/providers';
import { createI18n } from '../app/i18n';
import { createAppServices } from '../app/services';
import { currentLanguage } from '../lib/language';
import { MuiRoot } from '../lib/mui-root';
import { expectNoAxeViolations } from '../test/a11y';
import {
  CHROME_LINUX_UA,
  NEWER_APP_UA,
  registrationResponse,
  useUserAgent,
  withWebAuthn,
} from '../test/biometrics';
import { PUBLIC_CONFIG } from '../test/factories';
import { apiError, fakeFetch, json, type FakeHandler } from '../test/fake-api';
import { BiometricKeys } from './biometric-keys';

vi.mock('@simplewebauthn/browser', () => ({
  startAuthentication: vi.fn(),
  startRegistration: vi.fn(),
}));

const KEYS = [
  {
    id: 'k1',
    kind: 'webauthn',
    deviceName: 'Chrome sur Linux',
    createdAt: '2025-03-01T10:00:00.000Z',
    lastUsedAt: '2025-03-05T10:00:00.000Z',
    userVerifying: true,
  },
  {
    id: 'k2',
    kind: 'native',
    deviceName: 'Pixel 9',
    createdAt: '2025-02-01T10:00:00.000Z',
    lastUsedAt: null,
    userVerifying: true,
  },
];

async function renderKeys(handlers: Record<string, FakeHandler>, language: Language = 'fr') {
  const api = fakeFetch({ 'GET /api/config': () => json(200, PUBLIC_CONFIG), ...handlers });
  const i18n = await createI18n(language);
  const services = createAppServices({
    brand: 'hygie',
    getLanguage: () => currentLanguage(i18n.language),
    fetch: api.fetch,
  });
  const view = render(
    <AppProviders services={services} i18n={i18n}>
      <MuiRoot>
        <main>
          <BiometricKeys />
        </main>
      </MuiRoot>
    </AppProviders>,
  );
  return { ...view, calls: api.calls, services };
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('BiometricKeys', () => {
  it('lists my keys with their kind and dates', async () => {
    useUserAgent(CHROME_LINUX_UA);
    const { container } = await renderKeys({
      'GET /api/biometrics/credentials': () => json(200, KEYS),
    });
    const rows = await screen.findAllByTestId('biometric-key-row');
    expect(rows).toHaveLength(2);
    expect(rows[0]?.textContent).toContain('Chrome sur Linux');
    expect(rows[0]?.textContent).toContain(
      'Clé d’accès · Ajoutée le 1 mars 2025 · Dernière utilisation le 5 mars 2025',
    );
    expect(rows[1]?.textContent).toContain(
      'Application mobile · Ajoutée le 1 février 2025 · Jamais utilisée',
    );
    expect(screen.getByRole('heading', { level: 2, name: 'Connexion biométrique' })).toBeTruthy();
    await expectNoAxeViolations(container);
  });

  it('says when there is no key, and explains a failed load', async () => {
    await renderKeys({ 'GET /api/biometrics/credentials': () => json(200, []) });
    expect(await screen.findByText('Aucune clé biométrique.')).toBeTruthy();
    await renderKeys({ 'GET /api/biometrics/credentials': () => apiError(403, 'forbidden') });
    expect((await screen.findByTestId('biometric-error')).textContent).toBe(
      'Impossible de charger vos clés biométriques.',
    );
  });

  it('revokes a key after confirmation', async () => {
    let list = KEYS;
    const { calls } = await renderKeys({
      'GET /api/biometrics/credentials': () => json(200, list),
      'DELETE /api/biometrics/credentials/k2': () => {
        list = KEYS.slice(0, 1);
        return json(200, { ok: true });
      },
    });
    const user = userEvent.setup();
    await screen.findAllByTestId('biometric-key-row');
    const revoke = screen.getByRole('button', { name: 'Révoquer la clé « Pixel 9 »' });
    await user.click(revoke);
    const dialog = await screen.findByRole('dialog', { name: 'Révoquer cette clé ?' });
    // Cancelling changes nothing.
    await user.click(within(dialog).getByRole('button', { name: 'Annuler' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    await user.click(revoke);
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Révoquer' }),
    );
    await waitFor(() => expect(screen.getAllByTestId('biometric-key-row')).toHaveLength(1));
    expect(calls.find((c) => c.method === 'DELETE')?.headers['x-branding']).toBe('hygie');
  });

  it('explains a failed revocation', async () => {
    await renderKeys({
      'GET /api/biometrics/credentials': () => json(200, KEYS),
      'DELETE /api/biometrics/credentials/k1': () => apiError(404, 'not_found'),
    });
    const user = userEvent.setup();
    const [revoke] = await screen.findAllByTestId('biometric-key-revoke');
    if (!revoke) throw new Error('no revoke button');
    await user.click(revoke);
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Révoquer' }),
    );
    expect(
      within(screen.getByRole('dialog')).getByTestId('biometric-error').getAttribute('role'),
    ).toBe('alert');
  });

  it('adds a passkey in a browser', async () => {
    useUserAgent(CHROME_LINUX_UA);
    withWebAuthn();
    const credential = registrationResponse('new');
    vi.mocked(startRegistration).mockResolvedValue(credential);
    let list = KEYS.slice(0, 1);
    const { calls } = await renderKeys({
      'GET /api/biometrics/credentials': () => json(200, list),
      'POST /api/biometrics/webauthn/registration/options': () =>
        json(200, { challengeId: 'r1', options: { challenge: 'x' } }),
      'POST /api/biometrics/webauthn/registration/verify': () => {
        list = KEYS;
        return json(200, { ok: true });
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('passkey-add'));
    const dialog = await screen.findByRole('dialog', { name: 'Ajouter une clé d’accès' });
    expect(within(dialog).getByLabelText<HTMLInputElement>(/^Nom de cet appareil/).value).toBe(
      'Chrome sur Linux',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Créer la clé' }));
    await waitFor(() => expect(screen.getAllByTestId('biometric-key-row')).toHaveLength(2));
    expect(calls.find((c) => c.url.pathname.endsWith('/registration/verify'))?.body).toEqual({
      challengeId: 'r1',
      deviceName: 'Chrome sur Linux',
      response: credential,
    });
  });

  it('asks the password again when the session is not recently proven, then creates the key', async () => {
    useUserAgent(CHROME_LINUX_UA);
    withWebAuthn();
    vi.mocked(startRegistration).mockResolvedValue(registrationResponse('new'));
    let proven = false;
    const { calls, container } = await renderKeys({
      'GET /api/biometrics/credentials': () => json(200, []),
      'POST /api/biometrics/webauthn/registration/options': () =>
        proven
          ? json(200, { challengeId: 'r1', options: { challenge: 'x' } })
          : apiError(403, 'reauthentication_required'),
      'POST /api/session/reauthenticate': (request) => {
        if (
          z.object({ password: z.string() }).parse(request.body).password !== 'Mon-Mot-De-Passe-1'
        ) {
          return apiError(400, 'wrong_current_password');
        }
        proven = true;
        return json(200, { ok: true });
      },
      'POST /api/biometrics/webauthn/registration/verify': () => json(200, { ok: true }),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('passkey-add'));
    const dialog = await screen.findByRole('dialog', { name: 'Ajouter une clé d’accès' });
    await user.click(within(dialog).getByRole('button', { name: 'Créer la clé' }));
    // Not an error: the password is asked, and nothing was created.
    expect((await within(dialog).findByTestId('step-up')).textContent).toContain(
      'Pour continuer, confirmez votre mot de passe.',
    );
    expect(within(dialog).queryByTestId('biometric-error')).toBeNull();
    await expectNoAxeViolations(container);
    const password = within(dialog).getByLabelText(/^Mot de passe/);
    await user.type(password, 'Une-Devinette-1');
    await user.click(within(dialog).getByRole('button', { name: 'Créer la clé' }));
    expect((await within(dialog).findByTestId('step-up-error')).textContent).toBe(
      'Modifications non enregistrées, veuillez vérifier votre mot de passe.',
    );
    expect(calls.some((c) => c.url.pathname.endsWith('/registration/verify'))).toBe(false);
    await user.clear(password);
    await user.type(password, 'Mon-Mot-De-Passe-1');
    await user.click(within(dialog).getByRole('button', { name: 'Créer la clé' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.filter((c) => c.url.pathname.endsWith('/registration/verify'))).toHaveLength(1);
  });

  it('explains a passkey that could not be created, and says nothing on cancel', async () => {
    useUserAgent(CHROME_LINUX_UA);
    withWebAuthn();
    const cancelled = new Error('cancelled');
    cancelled.name = 'NotAllowedError';
    vi.mocked(startRegistration).mockRejectedValueOnce(cancelled);
    await renderKeys({
      'GET /api/biometrics/credentials': () => json(200, []),
      'POST /api/biometrics/webauthn/registration/options': () =>
        json(200, { challengeId: 'r1', options: { challenge: 'x' } }),
      'POST /api/biometrics/webauthn/registration/verify': () =>
        apiError(400, 'biometric_enrolment_failed'),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('passkey-add'));
    const create = await screen.findByRole('button', { name: 'Créer la clé' });
    await user.click(create);
    await waitFor(() => expect(create.hasAttribute('disabled')).toBe(false));
    expect(screen.queryByTestId('biometric-error')).toBeNull();
    vi.mocked(startRegistration).mockResolvedValueOnce(registrationResponse('new'));
    await user.click(create);
    expect((await screen.findByTestId('biometric-error')).textContent).toBe(
      'L’enrôlement biométrique a échoué.',
    );
  });

  it('offers no passkey inside the app, nor without WebAuthn', async () => {
    useUserAgent(NEWER_APP_UA);
    withWebAuthn();
    await renderKeys({ 'GET /api/biometrics/credentials': () => json(200, KEYS) });
    await screen.findAllByTestId('biometric-key-row');
    expect(screen.queryByTestId('passkey-add')).toBeNull();
  });

  it('speaks Arabic', async () => {
    await renderKeys({ 'GET /api/biometrics/credentials': () => json(200, KEYS) }, 'ar');
    expect((await screen.findAllByTestId('biometric-key-revoke'))[0]?.textContent).toBe('إلغاء');
  });
});
