import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { elementById } from '../../test/dom';
import { apiError, json, type FakeHandler } from '../../test/fake-api';
import { renderScreenAt } from '../../test/screens';
import RegisterSuccessPage from '../registration/register-success-page';

/** The screens this one hands over to, rendered for real when the test follows it there. */
const NEXT_SCREENS = { '/security/register/success': RegisterSuccessPage };

type User = ReturnType<typeof userEvent.setup>;

async function openForm(
  type: 'patient' | 'professional',
  register?: FakeHandler,
  query = '',
  language: 'fr' | 'ar' = 'fr',
) {
  const rendered = await renderScreenAt({
    also: NEXT_SCREENS,
    path: `/security/register/${type}${query}`,
    language,
    handlers: {
      'POST /api/register':
        register ??
        (() =>
          json(201, {
            email: 'marie.dupont@example.fr',
            status: type === 'patient' ? 'active' : 'pending_validation',
          })),
    },
  });
  await screen.findByTestId('register-submit');
  return { ...rendered, user: userEvent.setup() };
}

const byId = (id: string) => elementById(id, HTMLElement);

async function fillCommon(user: User) {
  await user.type(byId('register-email'), 'Marie.Dupont@Example.fr');
  await user.type(byId('register-password'), 'Inscription2025x');
  await user.type(byId('register-password-confirmation'), 'Inscription2025x');
  await user.type(byId('register-last-name'), 'Dupont');
  await user.type(byId('register-first-name'), 'Marie');
  await user.type(byId('register-birth-date'), '15041985');
  await user.type(byId('register-birth-place'), '75056');
  await user.selectOptions(byId('register-sex'), 'female');
  await user.type(byId('register-phone'), '06 12 34 56 78');
  await user.click(byId('register-cgu'));
}

const registrations = (calls: { url: URL; body: unknown }[]) =>
  calls.filter((call) => call.url.pathname === '/api/register').map((call) => call.body);

describe('registration choice', () => {
  it('offers patient and professional sign-up', async () => {
    await renderScreenAt({ also: NEXT_SCREENS, path: '/security/register' });
    expect((await screen.findByTestId('register-patient')).getAttribute('href')).toBe(
      '/security/register/patient',
    );
    expect(screen.getByTestId('register-professional').getAttribute('href')).toBe(
      '/security/register/professional',
    );
    expect(screen.getByTestId('register-patient').textContent).toBe('S’inscrire comme patient');
  });
});

describe('patient registration', () => {
  it('labels every field', async () => {
    await openForm('patient');
    expect(screen.getByLabelText(/^Adresse e-mail/).id).toBe('register-email');
    expect(screen.getByLabelText(/^Mot de passe/).id).toBe('register-password');
    expect(screen.getByLabelText(/^Confirmer le mot de passe/).id).toBe(
      'register-password-confirmation',
    );
    expect(screen.getByLabelText(/^Date de naissance/).id).toBe('register-birth-date');
    expect(screen.getByLabelText(/^Sexe/).tagName).toBe('SELECT');
    expect(screen.getByLabelText(/^Téléphone mobile/).getAttribute('type')).toBe('tel');
    expect(
      screen.getByText(
        'Au moins 9 caractères (ou 8 avec un caractère spécial), dont 1 chiffre, 1 minuscule et 1 majuscule.',
      ),
    ).toBeTruthy();
    const terms = screen.getByRole('link', {
      name: 'conditions générales d’utilisation (nouvel onglet)',
    });
    // The version shown, the one the box accepts.
    await waitFor(() =>
      expect(terms.getAttribute('href')).toBe('/security/accept-cgu?version=2025-03'),
    );
    expect(terms.getAttribute('target')).toBe('_blank');
  });

  it('types the birth date with its slashes', async () => {
    const { user } = await openForm('patient');
    await user.type(byId('register-birth-date'), '15041985');
    expect(elementById('register-birth-date', HTMLInputElement).value).toBe('15/04/1985');
  });

  it('posts the patient shape, then shows what comes next', async () => {
    const { user, calls, router } = await openForm('patient');
    await fillCommon(user);
    await user.type(byId('register-ssn'), '2 79 03 51 215 189 89');
    await user.type(byId('register-first-name-used'), 'Marion');
    await user.click(screen.getByTestId('register-submit'));
    const success = await screen.findByTestId('register-success');
    expect(router.state.location.pathname).toBe('/security/register/success');
    expect(registrations(calls)).toEqual([
      {
        type: 'patient',
        email: 'marie.dupont@example.fr',
        password: 'Inscription2025x',
        passwordConfirmation: 'Inscription2025x',
        acceptCgu: true,
        cguVersion: '2025-03',
        cguHash: 'a'.repeat(64),
        firstName: 'Marie',
        lastName: 'Dupont',
        birthDate: '15/04/1985',
        birthPlaceInsee: '75056',
        sex: 'female',
        phone: '+33612345678',
        socialSecurityNumber: '279035121518989',
        firstNameUsed: 'Marion',
      },
    ]);
    expect(success.textContent).toContain('Votre compte a été créé.');
    expect(success.textContent).toContain('Consultez votre messagerie');
    expect(success.textContent).not.toContain('professionnel de santé sera ensuite vérifiée');
  });

  it('validates every field before calling the server', async () => {
    const { user, calls } = await openForm('patient');
    await user.type(byId('register-email'), 'marie@');
    await user.type(byId('register-password'), 'Inscription2025x');
    await user.type(byId('register-password-confirmation'), 'Inscription2025y');
    await user.type(byId('register-birth-date'), '31022000');
    await user.type(byId('register-birth-place'), '7');
    await user.type(byId('register-phone'), '12');
    await user.click(screen.getByTestId('register-submit'));
    expect(await screen.findByText('Adresse e-mail incorrecte')).toBeTruthy();
    expect(screen.getByText('Les mots de passe ne correspondent pas.')).toBeTruthy();
    expect(screen.getByText('Date de naissance invalide (JJ/MM/AAAA)')).toBeTruthy();
    expect(
      screen.getByText('Le code INSEE doit comporter 5 caractères alphanumériques.'),
    ).toBeTruthy();
    expect(screen.getByText('Numéro de téléphone incorrect')).toBeTruthy();
    expect(
      screen.getByText('Vous devez accepter les conditions générales d’utilisation.'),
    ).toBeTruthy();
    expect(screen.getAllByText('Ce champ est obligatoire.').length).toBeGreaterThanOrEqual(3);
    expect(byId('register-last-name').getAttribute('aria-invalid')).toBe('true');
    expect(byId('register-cgu').getAttribute('aria-invalid')).toBe('true');
    expect(registrations(calls)).toEqual([]);
  });

  it('shows "e-mail already used" on the e-mail field', async () => {
    const { user } = await openForm('patient', () => apiError(409, 'email_already_used'));
    await fillCommon(user);
    await user.click(screen.getByTestId('register-submit'));
    expect(await screen.findByText('Cette adresse e-mail est déjà utilisée.')).toBeTruthy();
    expect(byId('register-email').getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByTestId('form-error')).toBeNull();
  });

  it('puts the server validation messages on their fields', async () => {
    const { user } = await openForm('patient', () =>
      apiError(400, 'validation_error', {
        fields: [
          { path: 'password', message: 'password_personal_info' },
          { path: 'socialSecurityNumber', message: 'identifier_taken' },
        ],
      }),
    );
    await fillCommon(user);
    await user.click(screen.getByTestId('register-submit'));
    expect(
      await screen.findByText(
        'Le mot de passe ne doit contenir ni votre nom ni votre adresse e-mail.',
      ),
    ).toBeTruthy();
    expect(screen.getByText('Cet identifiant est déjà utilisé.')).toBeTruthy();
  });

  it.each([
    ['too_many_requests', 'Trop de requêtes. Veuillez réessayer plus tard.'],
    ['registration_failed', 'L’inscription a échoué, veuillez réessayer plus tard.'],
  ])('explains %s', async (code, message) => {
    const { user } = await openForm('patient', () =>
      apiError(code === 'too_many_requests' ? 429 : 503, code),
    );
    await fillCommon(user);
    await user.click(screen.getByTestId('register-submit'));
    const alert = await screen.findByTestId('form-error');
    expect(alert.textContent).toBe(message);
    expect(alert.getAttribute('role')).toBe('alert');
  });
});

describe('professional registration', () => {
  it('posts the professional shape and says the identity is checked first', async () => {
    const { user, calls, router } = await openForm(
      'professional',
      undefined,
      '?target_uri=%2Foidc%2Fx',
    );
    await fillCommon(user);
    await user.selectOptions(byId('register-identifier-type'), 'RPPS');
    await user.type(byId('register-identifier'), '10002909371');
    await user.type(byId('register-job'), 'Médecin');
    await user.click(screen.getByTestId('register-submit'));
    const success = await screen.findByTestId('register-success');
    expect(registrations(calls)).toEqual([
      {
        type: 'professional',
        email: 'marie.dupont@example.fr',
        password: 'Inscription2025x',
        passwordConfirmation: 'Inscription2025x',
        acceptCgu: true,
        cguVersion: '2025-03',
        cguHash: 'a'.repeat(64),
        firstName: 'Marie',
        lastName: 'Dupont',
        birthDate: '15/04/1985',
        birthPlaceInsee: '75056',
        sex: 'female',
        phone: '+33612345678',
        identifier: { type: 'RPPS', value: '10002909371' },
        job: 'Médecin',
      },
    ]);
    expect(success.textContent).toContain(
      'Votre identité de professionnel de santé sera ensuite vérifiée',
    );
    expect(router.state.location.search).toBe('?target_uri=%2Foidc%2Fx&profile=professional');
  });

  it('checks the identifier by its type', async () => {
    const { user, calls } = await openForm('professional');
    await fillCommon(user);
    await user.selectOptions(byId('register-identifier-type'), 'RPPS');
    await user.type(byId('register-identifier'), '10002727378');
    await user.type(byId('register-job'), 'Infirmier');
    await user.click(screen.getByTestId('register-submit'));
    expect(await screen.findByText('Identifiant invalide')).toBeTruthy();
    expect(byId('register-identifier').getAttribute('aria-invalid')).toBe('true');
    expect(registrations(calls)).toEqual([]);
  });
});
