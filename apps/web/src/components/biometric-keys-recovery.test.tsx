import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startRegistration } from '@simplewebauthn/browser';
import { AppProviders } from '../app/providers';
import { createI18n } from '../app/i18n';
import { createAppServices } from '../app/services';
import { currentLanguage } from '../lib/language';
import { MuiRoot } from '../lib/mui-root';
import {
  CHROME_LINUX_UA,
  registrationResponse,
  useUserAgent,
  withWebAuthn,
} from '../test/biometrics';
import { PUBLIC_CONFIG } from '../test/factories';
import { fakeFetch, json, type FakeHandler } from '../test/fake-api';
import { BiometricKeys } from './biometric-keys';

// The first passkey brings the first recovery codes (issue #20) when the account had none left:
// shown once, like after the authenticator app's enrolment.

vi.mock('@simplewebauthn/browser', () => ({
  startAuthentication: vi.fn(),
  startRegistration: vi.fn(),
}));

const CODES = Array.from({ length: 10 }, (_, i) => `WXYZ-2345-${String(6000 + i)}`);

async function renderKeys(handlers: Record<string, FakeHandler>) {
  const api = fakeFetch({ 'GET /api/config': () => json(200, PUBLIC_CONFIG), ...handlers });
  const i18n = await createI18n('fr');
  const services = createAppServices({
    brand: 'hygie',
    getLanguage: () => currentLanguage(i18n.language),
    fetch: api.fetch,
  });
  return render(
    <AppProviders services={services} i18n={i18n}>
      <MuiRoot>
        <main>
          <BiometricKeys />
        </main>
      </MuiRoot>
    </AppProviders>,
  );
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('a first passkey and the recovery codes', () => {
  it('shows the codes the new passkey brought, once', async () => {
    useUserAgent(CHROME_LINUX_UA);
    withWebAuthn();
    vi.mocked(startRegistration).mockResolvedValue(registrationResponse('new'));
    await renderKeys({
      'GET /api/biometrics/credentials': () => json(200, []),
      'POST /api/biometrics/webauthn/registration/options': () =>
        json(200, { challengeId: 'r1', options: { challenge: 'x' } }),
      'POST /api/biometrics/webauthn/registration/verify': () =>
        json(200, { ok: true, recoveryCodes: CODES }),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('passkey-add'));
    const add = await screen.findByRole('dialog', { name: 'Ajouter une clé d’accès' });
    await user.click(within(add).getByRole('button', { name: 'Créer la clé' }));
    const dialog = await screen.findByTestId('recovery-codes-dialog');
    const items = within(dialog).getAllByRole('listitem');
    expect(items.map((li) => li.textContent)).toEqual(CODES);
  });
});
