import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AccountState } from '@hygie/domain';
import { makeProfile } from '../../test/account-data';
import type { A11yVariant } from '../../test/a11y';
import { typeCode } from '../../test/code';
import { elementById } from '../../test/dom';
import { makeUser } from '../../test/factories';
import { apiError, json, type FakeHandler } from '../../test/fake-api';
import { expectWellFormedScreen, type ScreenScenario } from '../../test/screen-check';
import { renderScreenAt } from '../../test/screens';
import GoodbyePage from './goodbye-page';

// "My data" on the profile (issue #15): the download of everything held, and the deletion of the
// account behind the password or a verification code, then the goodbye page, signed out.

const SECOND_FACTOR_REQUIRED = () =>
  apiError(403, 'second_factor_required', {
    user_identifier: 'u-1',
    two_factor_providers: ['email', 'sms'],
    email_hint: 'j***@example.fr',
    sms_hint: '+33 6 ** ** ** 78',
    sms_enabled: true,
  });

const HANDLERS: Record<string, FakeHandler> = {
  'GET /api/profile': () => json(200, makeProfile()),
  'DELETE /api/me': () => json(200, { ok: true }),
};

function openProfile(handlers: Record<string, FakeHandler> = {}) {
  return renderScreenAt({
    path: '/profile',
    user: makeUser(),
    handlers: { ...HANDLERS, ...handlers },
    also: { '/security/goodbye': GoodbyePage },
  });
}

describe('my data on the profile', () => {
  it('offers the download of my data as a file', async () => {
    await openProfile();
    const link = await screen.findByTestId('my-data-download');
    expect(link.getAttribute('href')).toBe('/api/me/export');
    expect(link.hasAttribute('download')).toBe(true);
    expect(link.textContent).toBe('Télécharger mes données');
    expect(
      within(screen.getByTestId('my-data')).getByRole('heading', { name: 'Mes données' }),
    ).toBeTruthy();
  });

  it('deletes the account with the password, then says goodbye, signed out', async () => {
    const { calls, router, services } = await openProfile();
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('delete-account-open'));
    const dialog = await screen.findByTestId('delete-account-dialog');
    expect(dialog.textContent).toContain('journal de sécurité');
    // Nothing is sent without the password.
    await user.click(screen.getByTestId('delete-account-confirm'));
    expect(
      elementById('delete-account-password', HTMLInputElement).getAttribute('aria-invalid'),
    ).toBe('true');
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);

    await user.type(elementById('delete-account-password', HTMLInputElement), 'Secret123');
    await user.click(screen.getByTestId('delete-account-confirm'));
    expect(await screen.findByTestId('goodbye')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/security/goodbye');
    expect(calls.find((call) => call.method === 'DELETE')?.body).toEqual({
      password: 'Secret123',
    });
    await waitFor(() => expect(services.accountState.get().state).toBe(AccountState.NOT_LOGGED_IN));
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(
      'Votre compte a été supprimé',
    );
  });

  it('says why a wrong password deleted nothing, and stays', async () => {
    const { router } = await openProfile({
      'DELETE /api/me': () => apiError(400, 'wrong_current_password'),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('delete-account-open'));
    await user.type(elementById('delete-account-password', HTMLInputElement), 'Wrong123');
    await user.click(screen.getByTestId('delete-account-confirm'));
    expect((await screen.findByTestId('form-error')).textContent).toBe(
      'Modifications non enregistrées, veuillez vérifier votre mot de passe.',
    );
    expect(router.state.location.pathname).toBe('/profile');
    await user.click(screen.getByTestId('delete-account-cancel'));
    await waitFor(() => expect(screen.queryByTestId('delete-account-dialog')).toBeNull());
  });

  it('tells the last active admin to name another admin first', async () => {
    await openProfile({ 'DELETE /api/me': () => apiError(409, 'last_admin') });
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('delete-account-open'));
    await user.type(elementById('delete-account-password', HTMLInputElement), 'Secret123');
    await user.click(screen.getByTestId('delete-account-confirm'));
    expect((await screen.findByTestId('form-error')).textContent).toContain(
      'dernier administrateur actif',
    );
  });

  it('deletes with a verification code instead of the password', async () => {
    let verified = false;
    const { calls, router } = await openProfile({
      'DELETE /api/me': () => (verified ? json(200, { ok: true }) : SECOND_FACTOR_REQUIRED()),
      'POST /api/session/second-factor/send': () =>
        json(200, { destination: 'j***@example.fr', retryAfterSeconds: 60 }),
      'POST /api/session/second-factor/verify': () => {
        verified = true;
        return json(200, { ok: true });
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('delete-account-open'));
    await user.click(await screen.findByTestId('delete-account-use-code'));
    await user.click(screen.getByTestId('delete-account-confirm'));
    await user.click(await screen.findByTestId('step-up-send'));
    await screen.findByTestId('code-input');
    await typeCode(user, '123456');
    await user.click(screen.getByTestId('delete-account-confirm'));
    expect(await screen.findByTestId('goodbye')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/security/goodbye');
    expect(calls.filter((call) => call.method === 'DELETE').map((call) => call.body)).toEqual([
      {},
      {},
    ]);
    expect(calls.find((call) => call.url.pathname.endsWith('/verify'))?.body).toEqual({
      provider: 'email',
      code: '123456',
    });
  });
});

/** French and Arabic (left to right, right to left), each in both brands, all with axe. */
const VARIANTS: readonly A11yVariant[] = [
  { language: 'fr', brand: 'hygie', axe: true },
  { language: 'fr', brand: 'telecare', axe: true },
  { language: 'ar', brand: 'hygie', axe: true },
  { language: 'ar', brand: 'telecare', axe: true },
];

const SCENARIOS: ScreenScenario[] = [
  {
    name: 'profile, my data and the deletion dialog with its password',
    path: '/profile',
    act: async (user) => {
      await user.click(await screen.findByTestId('delete-account-open'));
      await user.click(await screen.findByTestId('delete-account-confirm'));
      return waitFor(() =>
        expect(
          document.getElementById('delete-account-password')?.getAttribute('aria-invalid'),
        ).toBe('true'),
      );
    },
  },
  {
    name: 'deletion dialog asking for a verification code',
    path: '/profile',
    handlers: {
      'DELETE /api/me': SECOND_FACTOR_REQUIRED,
      'POST /api/session/second-factor/send': () =>
        json(200, { destination: 'j***@example.fr', retryAfterSeconds: 60 }),
    },
    act: async (user) => {
      await user.click(await screen.findByTestId('delete-account-open'));
      await user.click(await screen.findByTestId('delete-account-use-code'));
      await user.click(screen.getByTestId('delete-account-confirm'));
      await user.click(await screen.findByTestId('step-up-send'));
      return screen.findByTestId('code-input');
    },
  },
  { name: 'goodbye', path: '/security/goodbye', user: null },
];

describe.each(VARIANTS)('my data screens in $language with the $brand brand', (variant) => {
  it.each(SCENARIOS.map((scenario) => [scenario.name, scenario] as const))(
    '%s: one h1 in a <main>, its title, and passes axe',
    (_name, scenario) =>
      expectWellFormedScreen(
        {
          user: makeUser(),
          ...scenario,
          handlers: { ...HANDLERS, ...scenario.handlers },
        },
        variant,
      ),
  );
});
