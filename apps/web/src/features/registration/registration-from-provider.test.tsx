// The registration pre-filled from a provider's pending identity (issue #16, third slice): the
// asserted fields read-only with their origin, the rest typed; the login page's link mode leads
// there.
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { PendingIdentity } from '@hygie/domain';
import { expectNoAxeViolations } from '../../test/a11y';
import { elementById } from '../../test/dom';
import { apiError, json, type FakeHandler } from '../../test/fake-api';
import { renderScreenAt } from '../../test/screens';
import RegisterSuccessPage from './register-success-page';

const PSC: PendingIdentity = {
  provider: 'psc',
  profile: 'professional',
  expiresAt: Date.now() + 15 * 60_000,
  asserted: {
    firstName: 'Jean',
    lastName: 'Dupont',
    birthName: null,
    birthDate: null,
    sex: null,
    birthPlaceInsee: null,
    identifier: { type: 'RPPS', value: '10101210002' },
    job: 'Médecin',
  },
};

const FRANCECONNECT: PendingIdentity = {
  provider: 'franceconnect',
  profile: 'patient',
  expiresAt: Date.now() + 15 * 60_000,
  asserted: {
    firstName: 'Jeanne Marie',
    lastName: 'Martin',
    birthName: 'Martin',
    birthDate: '17/05/1980',
    sex: 'female',
    birthPlaceInsee: '75056',
    identifier: null,
    job: null,
  },
};

const input = (id: string) => elementById(id, HTMLInputElement);

async function openForm(
  type: 'patient' | 'professional',
  pending: PendingIdentity,
  options: { register?: FakeHandler; language?: 'fr' | 'ar' } = {},
) {
  const rendered = await renderScreenAt({
    also: { '/security/register/success': RegisterSuccessPage },
    path: `/security/register/${type}?idp=${pending.provider}`,
    language: options.language ?? 'fr',
    handlers: {
      'GET /api/idp/pending': () => json(200, pending),
      'POST /api/register':
        options.register ??
        (() => json(201, { email: 'jean.dupont@example.fr', status: 'active' })),
    },
  });
  await screen.findByTestId('register-from-provider');
  return { ...rendered, user: userEvent.setup() };
}

const registrations = (calls: { url: URL; body: unknown }[]) =>
  calls.filter((call) => call.url.pathname === '/api/register').map((call) => call.body);

describe('registration pre-filled from Pro Santé Connect', () => {
  it('shows the asserted fields read-only with their origin, and the others to type', async () => {
    await openForm('professional', PSC);
    expect(screen.getByTestId('register-from-provider').textContent).toContain(
      'viennent de Pro Santé Connect',
    );
    for (const [id, value] of [
      ['register-last-name', 'Dupont'],
      ['register-first-name', 'Jean'],
      ['register-identifier', '10101210002'],
      ['register-job', 'Médecin'],
    ] as const) {
      expect(input(id).readOnly).toBe(true);
      expect(input(id).value).toBe(value);
    }
    expect(input('register-identifier-type').readOnly).toBe(true);
    expect(input('register-identifier-type').value).toMatch(/^RPPS /);
    expect(screen.getAllByText('Fourni par Pro Santé Connect')).toHaveLength(5);
    // Not asserted by PSC: typed by the person.
    expect(input('register-birth-date').readOnly).toBe(false);
    expect(input('register-birth-name').readOnly).toBe(false);
    expect(elementById('register-sex', HTMLSelectElement).disabled).toBe(false);
  });

  it('posts the provider’s values with the pending identity named, then needs no validation wait', async () => {
    const { user, calls } = await openForm('professional', PSC);
    await user.type(input('register-email'), 'jean.dupont@example.fr');
    await user.type(input('register-password'), 'Inscription2025x');
    await user.type(input('register-password-confirmation'), 'Inscription2025x');
    await user.type(input('register-birth-date'), '15041985');
    await user.type(input('register-birth-place'), '75056');
    await user.selectOptions(elementById('register-sex', HTMLSelectElement), 'male');
    await user.type(input('register-phone'), '06 12 34 56 78');
    await user.click(input('register-cgu'));
    await user.click(screen.getByTestId('register-submit'));
    const success = await screen.findByTestId('register-success');
    expect(registrations(calls)).toEqual([
      expect.objectContaining({
        type: 'professional',
        fromIdentityProvider: 'psc',
        firstName: 'Jean',
        lastName: 'Dupont',
        identifier: { type: 'RPPS', value: '10101210002' },
        job: 'Médecin',
        birthDate: '15/04/1985',
      }),
    ]);
    expect(success.textContent).not.toContain('sera ensuite vérifiée');
  });

  it('says on the read-only field that the RPPS is already an account’s', async () => {
    const { user } = await openForm('professional', PSC, {
      register: () =>
        apiError(400, 'validation_error', {
          fields: [{ path: 'identifier.value', message: 'identifier_taken' }],
        }),
    });
    await user.type(input('register-email'), 'jean.dupont@example.fr');
    await user.type(input('register-password'), 'Inscription2025x');
    await user.type(input('register-password-confirmation'), 'Inscription2025x');
    await user.type(input('register-birth-date'), '15041985');
    await user.type(input('register-birth-place'), '75056');
    await user.selectOptions(elementById('register-sex', HTMLSelectElement), 'male');
    await user.type(input('register-phone'), '06 12 34 56 78');
    await user.click(input('register-cgu'));
    await user.click(screen.getByTestId('register-submit'));
    expect(await screen.findByText('Cet identifiant est déjà utilisé.')).toBeTruthy();
    await waitFor(() =>
      expect(input('register-identifier').getAttribute('aria-invalid')).toBe('true'),
    );
  });
});

describe('registration pre-filled from FranceConnect', () => {
  it.each(['fr', 'ar'] as const)(
    'shows the pivot traits read-only and passes axe (%s)',
    async (language) => {
      await openForm('patient', FRANCECONNECT, { language });
      expect(input('register-birth-date').value).toBe('17/05/1980');
      expect(input('register-birth-date').readOnly).toBe(true);
      expect(input('register-birth-place').readOnly).toBe(true);
      expect(input('register-sex').readOnly).toBe(true);
      expect(input('register-birth-name').value).toBe('Martin');
      // The used names and the INS stay the person's to type.
      expect(input('register-last-name-used').readOnly).toBe(false);
      expect(input('register-ssn').readOnly).toBe(false);
      if (language === 'ar') expect(document.documentElement.dir).toBe('rtl');
      await expectNoAxeViolations();
    },
  );

  it('shows the used family name FranceConnect asserted read-only', async () => {
    await openForm('patient', {
      ...FRANCECONNECT,
      asserted: { ...FRANCECONNECT.asserted, lastName: 'Durand', lastNameUsed: 'Durand' },
    });
    expect(input('register-last-name-used').value).toBe('Durand');
    expect(input('register-last-name-used').readOnly).toBe(true);
    expect(input('register-first-name-used').readOnly).toBe(false);
  });

  it('is the blank form when no identity waits (404)', async () => {
    await renderScreenAt({
      path: '/security/register/patient?idp=franceconnect',
      handlers: { 'GET /api/idp/pending': () => apiError(404, 'not_found') },
    });
    await screen.findByTestId('register-submit');
    expect(screen.queryByTestId('register-from-provider')).toBeNull();
    expect(input('register-last-name').readOnly).toBe(false);
  });
});

describe('login page, an identity linked to no account', () => {
  it.each([
    ['psc', '/security/register/professional?idp=psc'],
    ['franceconnect', '/security/register/patient?idp=franceconnect'],
  ])('offers to create an account with the %s identity', async (provider, href) => {
    await renderScreenAt({ path: `/security/login?idp_link=${provider}` });
    const link = await screen.findByTestId('idp-register');
    expect(link.getAttribute('href')).toBe(href);
    expect(link.textContent).toBe('Créer un compte avec cette identité');
    await expectNoAxeViolations();
  });
});
