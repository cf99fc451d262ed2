import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { profileUpdateSchema, type Profile } from '@hygie/domain';
import { makeAdminUserDetail, makeProfile } from '../../test/account-data';
import { A11Y_VARIANTS } from '../../test/a11y';
import { elementById } from '../../test/dom';
import { makeUser } from '../../test/factories';
import { apiError, json, type FakeHandler } from '../../test/fake-api';
import { renderScreen } from '../../test/render-screen';
import { expectWellFormedScreen } from '../../test/screen-check';
import { renderScreenAt } from '../../test/screens';
import UserDetailPage from '../admin/user-detail-page';

// Spec §3's category, address, gender and parent INS on the profile, its editor and the admin's
// user detail.

const input = (id: string) => elementById(id, HTMLInputElement);
const select = (id: string) => elementById(id, HTMLSelectElement);

const ADDRESS = {
  line1: '12 rue de la Paix',
  line2: 'Bât. B',
  postalCode: '75002',
  city: 'Paris',
  country: 'FR',
};
const PATIENT = makeProfile({
  gender: 'non_binary',
  address: ADDRESS,
  ins: '295109912611193',
  parentIns: '185057800608491',
});
const PROFESSIONAL = makeProfile({
  profile: 'professional',
  status: 'pending_validation',
  identifierType: 'RPPS',
  identifier: '10002909371',
  category: 'M',
});

/** A PATCH answered with the profile it makes (the fields the schema reads, over `base`). */
function saving(base: Profile): FakeHandler {
  return (request) => {
    const { identifier: _identifier, ...update } = profileUpdateSchema.parse(request.body);
    return json(200, { ...base, ...update });
  };
}

describe('the person fields on my profile', () => {
  it('shows a patient’s gender, address and parent INS', async () => {
    await renderScreenAt({
      path: '/profile',
      user: makeUser(),
      handlers: { 'GET /api/profile': () => json(200, PATIENT) },
    });
    expect(await screen.findByText('Non binaire')).toBeTruthy();
    expect(screen.getByText('12 rue de la Paix')).toBeTruthy();
    expect(screen.getByText('Bât. B')).toBeTruthy();
    expect(screen.getByText('75002 Paris')).toBeTruthy();
    expect(screen.getByText('France')).toBeTruthy();
    expect(screen.getByText('INS du parent (ouvrant droit)')).toBeTruthy();
    expect(screen.getByText('185057800608491')).toBeTruthy();
    expect(screen.queryByText('Catégorie professionnelle')).toBeNull();
  });

  it('shows a professional’s category, in English, and no parent INS', async () => {
    await renderScreenAt({
      path: '/profile',
      user: makeUser({ profile: 'professional' }),
      language: 'en',
      handlers: { 'GET /api/profile': () => json(200, PROFESSIONAL) },
    });
    expect(await screen.findByText('Professional category')).toBeTruthy();
    expect(screen.getByText('Military')).toBeTruthy();
    expect(screen.queryByText("Parent's INS (insured person)")).toBeNull();
  });
});

describe('the person fields in the profile editor', () => {
  it('shows a patient’s stored values and sends the changed ones', async () => {
    const { calls } = await renderScreenAt({
      path: '/profile/update',
      user: makeUser(),
      handlers: {
        'GET /api/profile': () => json(200, PATIENT),
        'PATCH /api/profile': saving(PATIENT),
      },
    });
    const user = userEvent.setup();
    await waitFor(() => expect(input('profile-address-line1').value).toBe('12 rue de la Paix'));
    expect(select('profile-gender').value).toBe('non_binary');
    expect(input('profile-parent-ins').value).toBe('185057800608491');
    expect(select('profile-address-country').value).toBe('FR');
    expect(document.getElementById('profile-category')).toBeNull();
    // The address is a group named by its legend.
    expect(screen.getByRole('group', { name: 'Adresse postale' })).toBeTruthy();

    await user.selectOptions(select('profile-gender'), 'female');
    await user.clear(input('profile-address-line2'));
    await user.clear(input('profile-address-postal-code'));
    await user.type(input('profile-address-postal-code'), '69002');
    await user.clear(input('profile-address-city'));
    await user.type(input('profile-address-city'), 'Lyon');
    await user.click(screen.getByTestId('profile-save'));
    expect((await screen.findByTestId('notification')).textContent).toContain(
      'Modifié avec succès',
    );
    expect(calls.find((call) => call.method === 'PATCH')?.body).toMatchObject({
      gender: 'female',
      address: {
        line1: '12 rue de la Paix',
        line2: null,
        postalCode: '69002',
        city: 'Lyon',
        country: 'FR',
      },
      parentIns: '185057800608491',
    });
  });

  it('sends no address when its fields are blank, whatever the country, and clears the rest', async () => {
    const { calls } = await renderScreenAt({
      path: '/profile/update',
      user: makeUser(),
      handlers: {
        'GET /api/profile': () => json(200, PATIENT),
        'PATCH /api/profile': saving(PATIENT),
      },
    });
    const user = userEvent.setup();
    await waitFor(() => expect(input('profile-address-line1').value).toBe('12 rue de la Paix'));
    for (const id of [
      'profile-address-line1',
      'profile-address-line2',
      'profile-address-postal-code',
      'profile-address-city',
      'profile-parent-ins',
    ]) {
      await user.clear(input(id));
    }
    await user.selectOptions(select('profile-address-country'), 'BE');
    await user.selectOptions(select('profile-gender'), '');
    await user.click(screen.getByTestId('profile-save'));
    await waitFor(() => expect(calls.some((call) => call.method === 'PATCH')).toBe(true));
    expect(calls.find((call) => call.method === 'PATCH')?.body).toMatchObject({
      address: null,
      gender: null,
      parentIns: null,
    });
  });

  it('checks the address and the parent INS before sending, each message on its field', async () => {
    const { calls } = await renderScreenAt({
      path: '/profile/update',
      user: makeUser(),
      handlers: { 'GET /api/profile': () => json(200, PATIENT) },
    });
    const user = userEvent.setup();
    await waitFor(() => expect(input('profile-address-line1').value).toBe('12 rue de la Paix'));
    await user.clear(input('profile-address-postal-code'));
    await user.type(input('profile-address-postal-code'), '7500');
    await user.clear(input('profile-address-line1'));
    await user.clear(input('profile-parent-ins'));
    await user.type(input('profile-parent-ins'), '295109912611193');
    await user.click(screen.getByTestId('profile-save'));
    await waitFor(() =>
      expect(input('profile-address-postal-code').getAttribute('aria-invalid')).toBe('true'),
    );
    expect(document.getElementById('profile-address-postal-code-helper-text')?.textContent).toBe(
      'Code postal invalide (5 chiffres en France).',
    );
    expect(document.getElementById('profile-address-line1-helper-text')?.textContent).toBe(
      'Ce champ est obligatoire.',
    );
    expect(document.getElementById('profile-parent-ins-helper-text')?.textContent).toBe(
      'Le numéro du parent doit différer du vôtre.',
    );
    expect(calls.some((call) => call.method === 'PATCH')).toBe(false);
  });

  it('puts the server’s refusal of the parent INS and of the postal code on their fields', async () => {
    await renderScreenAt({
      path: '/profile/update',
      user: makeUser(),
      language: 'ar',
      handlers: {
        'GET /api/profile': () => json(200, PATIENT),
        'PATCH /api/profile': () =>
          apiError(400, 'validation_error', {
            fields: [
              { path: 'parentIns', message: 'parent_ins_same' },
              { path: 'address.postalCode', message: 'postal_code_invalid' },
            ],
          }),
      },
    });
    const user = userEvent.setup();
    await waitFor(() => expect(input('profile-parent-ins')).toBeTruthy());
    await user.click(screen.getByTestId('profile-save'));
    await waitFor(() =>
      expect(input('profile-parent-ins').getAttribute('aria-invalid')).toBe('true'),
    );
    expect(input('profile-address-postal-code').getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById('profile-parent-ins-helper-text')?.textContent).toBe(
      'يجب أن يختلف رقم الوالد عن رقمك.',
    );
    expect(screen.queryByTestId('form-error')).toBeNull();
  });

  it('lets a professional choose a category, and has no parent INS', async () => {
    const { calls } = await renderScreenAt({
      path: '/profile/update',
      user: makeUser({ profile: 'professional' }),
      handlers: {
        'GET /api/profile': () => json(200, PROFESSIONAL),
        'PATCH /api/profile': saving(PROFESSIONAL),
      },
    });
    const user = userEvent.setup();
    await waitFor(() => expect(select('profile-category').value).toBe('M'));
    expect(document.getElementById('profile-parent-ins')).toBeNull();
    await user.selectOptions(select('profile-category'), 'E');
    await user.click(screen.getByTestId('profile-save'));
    await waitFor(() => expect(calls.some((call) => call.method === 'PATCH')).toBe(true));
    const body = calls.find((call) => call.method === 'PATCH')?.body;
    expect(body).toMatchObject({ category: 'E', address: null });
    expect(body).not.toHaveProperty('parentIns');
  });
});

describe('the person fields on the admin’s user detail', () => {
  it('shows a professional’s category, gender and address', async () => {
    const detail = makeAdminUserDetail();
    await renderScreen(UserDetailPage, {
      path: '/app-settings/users/u-2',
      at: '/app-settings/users/:userId',
      user: makeUser({ roles: ['admin'] }),
      handlers: {
        'GET /api/admin/users/u-2': () =>
          json(200, {
            ...detail,
            profile: {
              ...detail.profile,
              profile: 'professional',
              category: 'C',
              gender: 'female',
              address: ADDRESS,
            },
          }),
      },
    });
    const facts = await screen.findByTestId('user-facts');
    expect(facts.textContent).toContain('Catégorie professionnelle');
    expect(facts.textContent).toContain('Civil');
    expect(facts.textContent).toContain('Féminin');
    expect(facts.textContent).toContain('75002 Paris');
    expect(facts.textContent).not.toContain('INS du parent');
  });

  it('shows a patient’s parent INS', async () => {
    const detail = makeAdminUserDetail();
    await renderScreen(UserDetailPage, {
      path: '/app-settings/users/u-2',
      at: '/app-settings/users/:userId',
      user: makeUser({ roles: ['admin'] }),
      handlers: {
        'GET /api/admin/users/u-2': () =>
          json(200, {
            ...detail,
            profile: { ...detail.profile, profile: 'patient', parentIns: '185057800608491' },
          }),
      },
    });
    const facts = await screen.findByTestId('user-facts');
    expect(facts.textContent).toContain('INS du parent (ouvrant droit)');
    expect(facts.textContent).toContain('185057800608491');
    expect(facts.textContent).not.toContain('Catégorie professionnelle');
  });
});

describe.each(A11Y_VARIANTS)('the person fields in $language with $brand', (variant) => {
  it('the profile shows them accessibly', () =>
    expectWellFormedScreen(
      {
        name: 'profile',
        path: '/profile',
        user: makeUser(),
        handlers: { 'GET /api/profile': () => json(200, PATIENT) },
      },
      variant,
    ));

  it('the editor shows a patient’s fields and their errors accessibly', () =>
    expectWellFormedScreen(
      {
        name: 'profile editor with errors',
        path: '/profile/update',
        user: makeUser(),
        handlers: { 'GET /api/profile': () => json(200, PATIENT) },
        act: async (user) => {
          await waitFor(() =>
            expect(document.getElementById('profile-address-line1')).toBeTruthy(),
          );
          await user.clear(input('profile-address-postal-code'));
          await user.type(input('profile-address-postal-code'), '7500');
          await user.click(screen.getByTestId('profile-save'));
          return waitFor(() =>
            expect(input('profile-address-postal-code').getAttribute('aria-invalid')).toBe('true'),
          );
        },
      },
      variant,
    ));

  it('the editor shows a professional’s fields accessibly', () =>
    expectWellFormedScreen(
      {
        name: 'profile editor, professional',
        path: '/profile/update',
        user: makeUser({ profile: 'professional' }),
        handlers: { 'GET /api/profile': () => json(200, PROFESSIONAL) },
        act: () => waitFor(() => expect(document.getElementById('profile-category')).toBeTruthy()),
      },
      variant,
    ));
});
