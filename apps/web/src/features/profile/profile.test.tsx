import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { profileUpdateSchema } from '@hygie/domain';
import { makeProfile } from '../../test/account-data';
import { typeCode } from '../../test/code';
import { elementById } from '../../test/dom';
import { makeUser } from '../../test/factories';
import { apiError, json, type FakeHandler } from '../../test/fake-api';
import { renderScreenAt } from '../../test/screens';

const byId = (id: string) => elementById(id, HTMLInputElement);

function profileHandlers(extra: Record<string, FakeHandler> = {}): Record<string, FakeHandler> {
  return { 'GET /api/profile': () => json(200, makeProfile()), ...extra };
}

describe('my profile', () => {
  it('shows every field and links to the editor', async () => {
    await renderScreenAt({
      path: '/profile',
      user: makeUser(),
      handlers: profileHandlers({
        'GET /api/profile': () =>
          json(200, makeProfile({ ins: '285047512345678', firstNameUsed: 'Mimi' })),
      }),
    });
    const link = await screen.findByTestId('profile-edit-link');
    expect(link.getAttribute('href')).toBe('/profile/update');
    expect(link.textContent).toBe('Modifier');
    expect(screen.getByText('15/04/1985')).toBeTruthy();
    expect(screen.getByText('75056')).toBeTruthy();
    expect(screen.getByText('285047512345678')).toBeTruthy();
    expect(screen.getByText('Mimi')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Informations patient' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Activité professionnelle' })).toBeNull();
  });

  it('shows phone numbers as people read them, not in E.164', async () => {
    await renderScreenAt({
      path: '/profile',
      user: makeUser(),
      handlers: profileHandlers({
        'GET /api/profile': () =>
          json(200, makeProfile({ phone: '+33612345678', pendingPhone: '+447400123456' })),
      }),
    });
    expect(await screen.findByText('06 12 34 56 78')).toBeTruthy();
    expect(screen.getByText('+44 7400 123456')).toBeTruthy();
    expect(screen.queryByText('+33612345678')).toBeNull();
  });

  it('shows the professional extras', async () => {
    await renderScreenAt({
      path: '/profile',
      user: makeUser({ profile: 'professional' }),
      language: 'en',
      handlers: profileHandlers({
        'GET /api/profile': () =>
          json(
            200,
            makeProfile({
              profile: 'professional',
              identifierType: 'RPPS',
              identifier: '10000000007',
              job: 'Médecin',
            }),
          ),
      }),
    });
    expect(await screen.findByRole('heading', { name: 'Professional activity' })).toBeTruthy();
    expect(screen.getByText('10000000007')).toBeTruthy();
    expect(screen.getByText('Médecin')).toBeTruthy();
  });

  it('changes the e-mail once the code sent to the new address is typed', async () => {
    const { calls } = await renderScreenAt({
      path: '/profile',
      user: makeUser(),
      handlers: profileHandlers({
        'POST /api/profile/email': () =>
          json(200, { destination: 'n•••@example.fr', retryAfterSeconds: 60 }),
        'POST /api/profile/email/verify': () => json(200, makeProfile({ email: 'new@example.fr' })),
      }),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('profile-email-change'));
    await user.type(byId('profile-email-new'), 'new@example.fr');
    await user.type(byId('profile-email-password'), 'Secret123');
    await user.click(screen.getByTestId('profile-email-send'));
    await screen.findByTestId('code-input');
    await typeCode(user, '123456');
    await user.click(screen.getByTestId('profile-email-verify'));
    expect((await screen.findByTestId('notification')).textContent).toContain(
      'Modifié avec succès',
    );
    expect(await screen.findByText('new@example.fr')).toBeTruthy();
    const bodies = calls.filter((call) => call.method === 'POST').map((call) => call.body);
    expect(bodies).toEqual([
      { email: 'new@example.fr', currentPassword: 'Secret123' },
      { code: '123456' },
    ]);
  });

  it('refuses a phone change with a wrong password, and a wrong code', async () => {
    let attempts = 0;
    await renderScreenAt({
      path: '/profile',
      user: makeUser(),
      handlers: profileHandlers({
        'POST /api/profile/phone': () => {
          attempts += 1;
          return attempts === 1
            ? apiError(400, 'wrong_current_password')
            : json(200, { destination: '+33 6 •• •• •• 99', retryAfterSeconds: 60 });
        },
        'POST /api/profile/phone/verify': () =>
          apiError(400, 'wrong_code', { remainingAttempts: 2 }),
      }),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('profile-phone-change'));
    await user.type(byId('profile-phone-new'), '06 12 34 56 99');
    await user.type(byId('profile-phone-password'), 'Wrong123');
    await user.click(screen.getByTestId('profile-phone-send'));
    expect((await screen.findByTestId('form-error')).textContent).toBe(
      'Modifications non enregistrées, veuillez vérifier votre mot de passe.',
    );
    await user.click(screen.getByTestId('profile-phone-send'));
    await screen.findByTestId('code-input');
    await typeCode(user, '654321');
    await user.click(screen.getByTestId('profile-phone-verify'));
    expect((await screen.findByTestId('form-error')).textContent).toMatch(/2/);
  });

  it('keeps the number and says it is not changed when a code was asked for moments ago', async () => {
    const { calls } = await renderScreenAt({
      path: '/profile',
      user: makeUser(),
      handlers: profileHandlers({
        'POST /api/profile/phone': () =>
          apiError(429, 'wait_before_retry', { retryAfterSeconds: 42 }),
      }),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('profile-phone-change'));
    await user.type(byId('profile-phone-new'), '06 12 34 56 99');
    await user.type(byId('profile-phone-password'), 'Secret123');
    await user.click(screen.getByTestId('profile-phone-send'));
    expect((await screen.findByTestId('form-error')).textContent).toBe(
      'Votre numéro n’a pas été modifié : un code vient d’être demandé. Vous pourrez envoyer un code à ce numéro dans 42 secondes.',
    );
    // Still on the number step, the number typed kept, no code step.
    expect(screen.queryByTestId('code-input')).toBeNull();
    expect(byId('profile-phone-new').value).toBe('06 12 34 56 99');
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(1);
  });

  it('shows a refused "send again" on the code step', async () => {
    let sends = 0;
    await renderScreenAt({
      path: '/profile',
      user: makeUser(),
      handlers: profileHandlers({
        'POST /api/profile/email': () => {
          sends += 1;
          return sends === 1
            ? json(200, { destination: 'n•••@example.fr', retryAfterSeconds: 60 })
            : apiError(429, 'wait_before_retry', { retryAfterSeconds: 30 });
        },
      }),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('profile-email-change'));
    await user.type(byId('profile-email-new'), 'new@example.fr');
    await user.type(byId('profile-email-password'), 'Secret123');
    await user.click(screen.getByTestId('profile-email-send'));
    await screen.findByTestId('code-input');
    await user.click(screen.getByRole('button', { name: 'Renvoyer le code' }));
    expect((await screen.findByTestId('form-error')).textContent).toBe(
      'Veuillez patienter 30 secondes avant de réessayer.',
    );
    expect(screen.getByTestId('code-input')).toBeTruthy();
  });

  it('checks the new e-mail before asking the server', async () => {
    const { calls } = await renderScreenAt({
      path: '/profile',
      user: makeUser(),
      language: 'en',
      handlers: profileHandlers(),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('profile-email-change'));
    await user.type(byId('profile-email-new'), 'not-an-email');
    await user.click(screen.getByTestId('profile-email-send'));
    expect(await screen.findByText('Incorrect email address')).toBeTruthy();
    expect(calls.some((call) => call.url.pathname === '/api/profile/email')).toBe(false);
  });

  it('changes the password and says the other sessions were signed out', async () => {
    await renderScreenAt({
      path: '/profile',
      user: makeUser(),
      handlers: profileHandlers({ 'POST /api/profile/password': () => json(200, { ok: true }) }),
    });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/^Mot de passe actuel/), 'Secret123');
    await user.type(byId('profile-new-password'), 'Kerguelen-Orque-7');
    await user.type(byId('profile-new-password-confirmation'), 'Kerguelen-Orque-7');
    await user.click(screen.getByTestId('password-change-submit'));
    expect((await screen.findByTestId('password-changed')).textContent).toBe(
      'Votre mot de passe a été changé. Vos autres sessions et appareils de confiance ont été déconnectés.',
    );
  });

  it('hides the last success once the next action fails', async () => {
    await renderScreenAt({
      path: '/profile',
      user: makeUser(),
      handlers: profileHandlers({
        'POST /api/profile/email': () =>
          json(200, { destination: 'n•••@example.fr', retryAfterSeconds: 60 }),
        'POST /api/profile/email/verify': () => json(200, makeProfile({ email: 'new@example.fr' })),
        'POST /api/profile/password': () => apiError(400, 'wrong_current_password'),
      }),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('profile-email-change'));
    await user.type(byId('profile-email-new'), 'new@example.fr');
    await user.type(byId('profile-email-password'), 'Secret123');
    await user.click(screen.getByTestId('profile-email-send'));
    await screen.findByTestId('code-input');
    await typeCode(user, '123456');
    await user.click(screen.getByTestId('profile-email-verify'));
    expect((await screen.findByTestId('notification')).textContent).toContain(
      'Modifié avec succès',
    );
    await user.type(await screen.findByLabelText(/^Mot de passe actuel/), 'Wrong123');
    await user.type(byId('profile-new-password'), 'Kerguelen-Orque-7');
    await user.type(byId('profile-new-password-confirmation'), 'Kerguelen-Orque-7');
    await user.click(screen.getByTestId('password-change-submit'));
    await screen.findByTestId('form-error');
    expect(screen.queryByTestId('notification')).toBeNull();
  });

  it('hides "password changed" when the next try is refused', async () => {
    await renderScreenAt({
      path: '/profile',
      user: makeUser(),
      handlers: profileHandlers({ 'POST /api/profile/password': () => json(200, { ok: true }) }),
    });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/^Mot de passe actuel/), 'Secret123');
    await user.type(byId('profile-new-password'), 'Kerguelen-Orque-7');
    await user.type(byId('profile-new-password-confirmation'), 'Kerguelen-Orque-7');
    await user.click(screen.getByTestId('password-change-submit'));
    await screen.findByTestId('password-changed');
    // The form is empty again: submitting it is refused before the server is asked.
    await user.click(screen.getByTestId('password-change-submit'));
    await waitFor(() => expect(screen.queryByTestId('password-changed')).toBeNull());
    expect(byId('profile-current-password').getAttribute('aria-invalid')).toBe('true');
  });

  it('says a wrong current password changed nothing', async () => {
    await renderScreenAt({
      path: '/profile',
      user: makeUser(),
      language: 'en',
      handlers: profileHandlers({
        'POST /api/profile/password': () => apiError(400, 'wrong_current_password'),
      }),
    });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/^Current password/), 'Wrong123');
    await user.type(byId('profile-new-password'), 'Kerguelen-Orque-7');
    await user.type(byId('profile-new-password-confirmation'), 'Kerguelen-Orque-7');
    await user.click(screen.getByTestId('password-change-submit'));
    expect((await screen.findByTestId('form-error')).textContent).toBe(
      'Changes not saved, please check your password.',
    );
  });

  it('puts password_must_differ on the new password', async () => {
    await renderScreenAt({
      path: '/profile',
      user: makeUser(),
      handlers: profileHandlers({
        'POST /api/profile/password': () => apiError(400, 'password_must_differ'),
      }),
    });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/^Mot de passe actuel/), 'Secret123');
    await user.type(byId('profile-new-password'), 'Hygie-Portail9');
    await user.type(byId('profile-new-password-confirmation'), 'Hygie-Portail9');
    await user.click(screen.getByTestId('password-change-submit'));
    await waitFor(() =>
      expect(document.getElementById('profile-new-password-helper-text')?.textContent).toBe(
        'Le nouveau mot de passe doit être différent de l’ancien.',
      ),
    );
    expect(screen.queryByTestId('form-error')).toBeNull();
  });
});

describe('profile editor', () => {
  it('saves and says so', async () => {
    const { calls } = await renderScreenAt({
      path: '/profile/update',
      user: makeUser(),
      handlers: profileHandlers({
        'PATCH /api/profile': (request) => {
          const { identifier, ...update } = profileUpdateSchema.parse(request.body);
          const saved =
            identifier === undefined
              ? {}
              : {
                  identifierType: identifier?.type ?? null,
                  identifier: identifier?.value ?? null,
                };
          return json(200, makeProfile({ ...update, ...saved }));
        },
      }),
    });
    const user = userEvent.setup();
    const first = await waitFor(() => {
      const input = byId('profile-first-name');
      expect(input).toBeTruthy();
      return input;
    });
    expect(first.value).toBe('Marie');
    await user.clear(first);
    await user.type(first, 'Marie-Claire');
    await user.click(screen.getByTestId('profile-save'));
    expect((await screen.findByTestId('notification')).textContent).toContain(
      'Modifié avec succès',
    );
    const patch = calls.find((call) => call.method === 'PATCH');
    expect(patch?.body).toMatchObject({
      firstName: 'Marie-Claire',
      lastName: 'Dupont',
      birthPlaceInsee: '75056',
      sex: 'female',
      ins: null,
    });
  });

  it('shows the validation errors field by field', async () => {
    const { calls } = await renderScreenAt({
      path: '/profile/update',
      user: makeUser(),
      handlers: profileHandlers(),
    });
    const user = userEvent.setup();
    await waitFor(() => expect(byId('profile-first-name')).toBeTruthy());
    await user.clear(byId('profile-first-name'));
    await user.clear(byId('profile-birth-place'));
    await user.type(byId('profile-birth-place'), '7');
    await user.click(screen.getByTestId('profile-save'));
    await waitFor(() =>
      expect(byId('profile-first-name').getAttribute('aria-invalid')).toBe('true'),
    );
    expect(byId('profile-birth-place').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Ce champ est obligatoire.')).toBeTruthy();
    expect(calls.some((call) => call.method === 'PATCH')).toBe(false);
  });

  it('puts the server validation errors on their fields', async () => {
    await renderScreenAt({
      path: '/profile/update',
      user: makeUser(),
      language: 'ar',
      handlers: profileHandlers({
        'PATCH /api/profile': () =>
          apiError(400, 'validation_error', {
            fields: [{ path: 'lastName', message: 'name_invalid' }],
          }),
      }),
    });
    const user = userEvent.setup();
    await waitFor(() => expect(byId('profile-last-name')).toBeTruthy());
    await user.click(screen.getByTestId('profile-save'));
    await waitFor(() =>
      expect(byId('profile-last-name').getAttribute('aria-invalid')).toBe('true'),
    );
    const helper = document.getElementById('profile-last-name-helper-text');
    expect(helper?.textContent).toMatch(/[\u0600-\u06FF]/);
    expect(screen.queryByTestId('form-error')).toBeNull();
  });

  it('shows a validated professional’s checked identity without letting it be edited', async () => {
    const { calls } = await renderScreenAt({
      path: '/profile/update',
      user: makeUser({ profile: 'professional' }),
      handlers: profileHandlers({
        'GET /api/profile': () =>
          json(
            200,
            makeProfile({
              profile: 'professional',
              status: 'active',
              identifierType: 'RPPS',
              identifier: '10002909371',
              job: 'Médecin',
            }),
          ),
        'PATCH /api/profile': () => json(200, makeProfile({ profile: 'professional' })),
      }),
    });
    const user = userEvent.setup();
    expect((await screen.findByTestId('identity-checked')).textContent).toContain(
      'Votre identité a été vérifiée à la validation de votre compte',
    );
    for (const id of ['profile-last-name', 'profile-first-name', 'profile-birth-date']) {
      expect(byId(id).disabled).toBe(true);
    }
    expect(elementById('profile-sex', HTMLSelectElement).disabled).toBe(true);
    // What the user chooses for themself stays theirs to change.
    expect(elementById('profile-language', HTMLSelectElement).disabled).toBe(false);
    expect(byId('profile-identifier').disabled).toBe(true);
    expect(byId('profile-job').disabled).toBe(false);
    await user.clear(byId('profile-job'));
    await user.type(byId('profile-job'), 'Chirurgienne');
    await user.click(screen.getByTestId('profile-save'));
    await waitFor(() => expect(calls.some((call) => call.method === 'PATCH')).toBe(true));
    const body = profileUpdateSchema.parse(calls.find((call) => call.method === 'PATCH')?.body);
    expect(body.job).toBe('Chirurgienne');
    // Whatever it sends of the identity is what it was shown.
    expect(body.lastName ?? 'Dupont').toBe('Dupont');
    expect(body.identifier?.value ?? '10002909371').toBe('10002909371');
  });

  it('says the English success text', async () => {
    await renderScreenAt({
      path: '/profile/update',
      user: makeUser(),
      language: 'en',
      handlers: profileHandlers({ 'PATCH /api/profile': () => json(200, makeProfile()) }),
    });
    const user = userEvent.setup();
    await waitFor(() => expect(byId('profile-first-name')).toBeTruthy());
    await user.click(screen.getByTestId('profile-save'));
    expect((await screen.findByTestId('notification')).textContent).toContain(
      'Modified successfully',
    );
    expect(within(document.body).getByTestId('notification')).toBeTruthy();
  });
});
