import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startAuthentication } from '@simplewebauthn/browser';
import type { Assurance } from '@hygie/domain';
import { browser } from '../../lib/browser';
import { authenticationResponse, withWebAuthn } from '../../test/biometrics';
import { codeDigits, typeCode } from '../../test/code';
import { makeUser } from '../../test/factories';
import { apiError, json, type FakeHandler } from '../../test/fake-api';
import { renderScreen } from '../../test/render-screen';
import StepUpPage, { stepUpTarget } from './step-up-page';

vi.mock('@simplewebauthn/browser', () => ({
  startAuthentication: vi.fn(),
  startRegistration: vi.fn(),
}));

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const INTERACTION = '/oidc/interaction/abc';

function assurance(overrides: Partial<Assurance> = {}): Assurance {
  return {
    level: 'low',
    amr: ['pwd', 'otp'],
    accountMinimum: null,
    required: 'substantial',
    reached: false,
    means: [{ kind: 'totp' }],
    enrolment: [{ kind: 'totp' }, { kind: 'passkey' }],
    ...overrides,
  };
}

async function openStepUp(
  options: {
    query?: string;
    answer?: Assurance;
    handlers?: Record<string, FakeHandler>;
    language?: 'fr' | 'en' | 'ar';
  } = {},
) {
  const query =
    options.query ??
    `level=substantial&target_uri=${encodeURIComponent(INTERACTION)}&client_id=imagerie`;
  const rendered = await renderScreen(StepUpPage, {
    path: `/security/step-up?${query}`,
    user: makeUser(),
    ...(options.language && { language: options.language }),
    handlers: {
      'GET /api/me/assurance': () => json(200, options.answer ?? assurance()),
      'GET /api/platforms/by-client/imagerie': () =>
        json(200, { name: 'Imagerie', url: 'https://imagerie.example' }),
      ...options.handlers,
    },
  });
  await screen.findByTestId('step-up-required');
  return { ...rendered, user: userEvent.setup() };
}

describe('step-up screen', () => {
  it('names the platform and the level it requires, asks the level of the session', async () => {
    const { calls } = await openStepUp();
    await waitFor(() =>
      expect(screen.getByTestId('step-up-required').textContent).toBe(
        '\u2068Imagerie\u2069 demande un niveau de sécurité substantiel.',
      ),
    );
    expect((await screen.findByTestId('step-up-current')).textContent).toBe(
      'Votre connexion actuelle a un niveau de sécurité faible.',
    );
    const asked = calls.find((c) => c.url.pathname === '/api/me/assurance');
    expect(asked?.url.searchParams.get('level')).toBe('substantial');
  });

  it('says "this platform" when it cannot name it', async () => {
    await openStepUp({ query: `level=high&target_uri=${encodeURIComponent(INTERACTION)}` });
    expect(screen.getByTestId('step-up-required').textContent).toBe(
      'Cette plateforme demande un niveau de sécurité élevé.',
    );
  });

  it('takes the authenticator app’s code in six digit fields, then goes on to the platform', async () => {
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    const { user, calls } = await openStepUp({
      handlers: { 'POST /api/me/assurance/totp': () => json(200, { level: 'substantial' }) },
    });
    await screen.findByTestId('step-up-totp');
    expect(codeDigits()).toHaveLength(6);
    expect(screen.getByRole('heading', { name: 'Code de votre application d’authentification' }));
    await typeCode(user, '123456');
    await user.click(screen.getByTestId('step-up-totp-submit'));
    await waitFor(() =>
      expect(assign).toHaveBeenCalledWith(`${window.location.origin}${INTERACTION}`),
    );
    const posted = calls.filter((c) => c.url.pathname === '/api/me/assurance/totp');
    expect(posted.map((c) => c.body)).toEqual([{ code: '123456' }]);
  });

  it('says a wrong code, empties the fields and stays', async () => {
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    const { user } = await openStepUp({
      handlers: {
        'POST /api/me/assurance/totp': () => apiError(400, 'wrong_code', { remainingAttempts: 2 }),
      },
    });
    await screen.findByTestId('step-up-totp');
    await typeCode(user, '123456');
    await user.click(screen.getByTestId('step-up-totp-submit'));
    expect(await screen.findByTestId('form-error')).toBeTruthy();
    await waitFor(() =>
      expect(
        codeDigits()
          .map((d) => d.value)
          .join(''),
      ).toBe(''),
    );
    expect(assign).not.toHaveBeenCalled();
  });

  it('offers a passkey in a browser that has them, and goes on once it answers', async () => {
    withWebAuthn();
    vi.mocked(startAuthentication).mockResolvedValue(authenticationResponse('cred-1'));
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    const { user, calls } = await openStepUp({
      answer: assurance({ means: [{ kind: 'passkey' }] }),
      handlers: {
        'POST /api/me/assurance/passkey/options': () =>
          json(200, { challengeId: 'ch-1', options: { challenge: 'abc' } }),
        'POST /api/me/assurance/passkey': () => json(200, { level: 'substantial' }),
      },
    });
    await user.click(await screen.findByTestId('step-up-passkey-button'));
    await waitFor(() => expect(assign).toHaveBeenCalled());
    const posted = calls.find((c) => c.url.pathname === '/api/me/assurance/passkey');
    expect(posted?.body).toEqual({
      challengeId: 'ch-1',
      response: authenticationResponse('cred-1'),
    });
  });

  it('offers a linked provider with its own button, to step up and come back', async () => {
    await openStepUp({
      answer: assurance({ means: [{ kind: 'provider', id: 'psc', name: 'Pro Santé Connect' }] }),
    });
    const link = await screen.findByTestId('idp-psc');
    const href = new URL(link.getAttribute('href') ?? '', window.location.origin);
    expect(href.pathname).toBe('/api/idp/psc/start');
    expect(href.searchParams.get('intent')).toBe('step_up');
    expect(href.searchParams.get('level')).toBe('substantial');
    expect(href.searchParams.get('target_uri')).toBe(`${window.location.origin}${INTERACTION}`);
  });

  it('explains how to enrol a means when the user has none, with a way back', async () => {
    const { user, calls } = await openStepUp({
      answer: assurance({
        means: [],
        enrolment: [{ kind: 'totp' }, { kind: 'provider', id: 'psc', name: 'Pro Santé Connect' }],
      }),
    });
    const section = await screen.findByTestId('step-up-enrolment');
    expect(within(section).getByRole('heading').textContent).toBe(
      'Aucun de vos moyens de connexion n’atteint ce niveau',
    );
    const totp = within(section).getByRole('link', {
      name: 'Ajouter une application d’authentification',
    });
    expect(totp.getAttribute('href')).toBe('/devices');
    expect(
      within(section).getByRole('link', { name: /^Relier votre compte \u2068?Pro Santé Connect/ }),
    ).toBeTruthy();
    expect(screen.queryByTestId('code-input')).toBeNull();
    const cancel = screen.getByTestId('step-up-cancel');
    expect(cancel.textContent).toBe('Annuler et revenir à \u2068Imagerie\u2069');
    expect(cancel.getAttribute('href')).toBe(`${window.location.origin}${INTERACTION}/abort`);

    const before = calls.filter((c) => c.url.pathname === '/api/me/assurance').length;
    await user.click(screen.getByTestId('step-up-retry'));
    await waitFor(() =>
      expect(calls.filter((c) => c.url.pathname === '/api/me/assurance').length).toBe(before + 1),
    );
  });

  it('asked by the account area: names the area, goes back to the page, cancels home', async () => {
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    const { user } = await openStepUp({
      query: 'level=substantial&target_uri=%2Fsessions',
      handlers: { 'POST /api/me/assurance/totp': () => json(200, { level: 'substantial' }) },
    });
    expect(screen.getByTestId('step-up-required').textContent).toBe(
      'Cet espace demande un niveau de sécurité substantiel.',
    );
    expect(screen.getByTestId('step-up-cancel').getAttribute('href')).toBe('/');
    await screen.findByTestId('step-up-totp');
    await typeCode(user, '123456');
    await user.click(screen.getByTestId('step-up-totp-submit'));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(`${window.location.origin}/sessions`));
  });

  it('lets a session that reached the level meanwhile go on', async () => {
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    const { user } = await openStepUp({
      answer: assurance({ level: 'substantial', reached: true }),
    });
    await user.click(await screen.findByTestId('step-up-continue'));
    expect(assign).toHaveBeenCalledWith(`${window.location.origin}${INTERACTION}`);
  });

  it('explains an incomplete request (no known level) and links home', async () => {
    await renderScreen(StepUpPage, {
      path: '/security/step-up?level=extreme',
      user: makeUser(),
    });
    expect((await screen.findByTestId('form-error')).textContent).toMatch(/incomplète/);
    expect(screen.getByTestId('step-up-cancel').getAttribute('href')).toBe('/');
  });

  it('speaks Arabic', async () => {
    await openStepUp({ language: 'ar', answer: assurance({ means: [] }) });
    await waitFor(() =>
      expect(screen.getByTestId('step-up-required').textContent).toBe(
        'تطلب \u2068Imagerie\u2069 مستوى أمان جوهري.',
      ),
    );
    expect(await screen.findByTestId('step-up-enrolment')).toBeTruthy();
  });
});

describe('stepUpTarget', () => {
  const origin = 'https://hygie.example';

  it('aborts an interaction of the portal at its /abort', () => {
    expect(stepUpTarget(`${origin}/oidc/interaction/x1`, origin)).toEqual({
      target: `${origin}/oidc/interaction/x1`,
      abort: `${origin}/oidc/interaction/x1/abort`,
    });
  });

  it('keeps a page of the portal, with no abort', () => {
    expect(stepUpTarget('/sessions?x=1', origin)).toEqual({
      target: `${origin}/sessions?x=1`,
      abort: null,
    });
  });

  it.each(['https://evil.example/oidc/interaction/x1', '//evil.example/x', 'javascript:alert(1)'])(
    'drops the foreign target %s',
    (target) => {
      expect(stepUpTarget(target, origin)).toEqual({ target: null, abort: null });
    },
  );
});

describe('step-up screen back from a provider', () => {
  it('says an identity linked to another account did not raise the session', async () => {
    await openStepUp({
      query: `level=high&target_uri=${encodeURIComponent(INTERACTION)}&idp_error=not_linked`,
      answer: assurance({
        required: 'high',
        means: [{ kind: 'provider', id: 'psc', name: 'Pro Santé Connect' }],
      }),
    });
    expect((await screen.findByTestId('step-up-idp-error')).textContent).toBe(
      'Cette identité n’est pas liée à votre compte : reliez-la dans « Mes appareils », ou choisissez un autre moyen.',
    );
    expect(await screen.findByTestId('idp-psc')).toBeTruthy();
  });
});
