import { expect, test } from '@playwright/test';
import { expectAccessible, registerPatient, signInPatient, withDatabase } from './support.js';

// Spec §3's gender, postal address and parent INS in a real browser: a patient fills them in by
// keyboard, a postal code the country does not have is refused on its field, then the profile
// shows what was saved and the database holds it (the parent's INS sealed, never in clear).

const stamp = Date.now();
const PATIENT = {
  email: `person-fields-${stamp}@hygie.test`,
  password: 'Silver-Orchard-58',
  phone: '06 44 55 66 41',
  e164: '+33644556641',
};

test('a patient gives a gender, an address and the parent INS, by keyboard', async ({
  page,
  request,
}) => {
  await registerPatient(request, PATIENT);
  await signInPatient(page, request, PATIENT);
  await page.goto('/profile/update');
  await expect(page.getByRole('group', { name: 'Adresse postale' })).toBeVisible();

  await page.locator('#profile-gender').focus();
  await page.keyboard.press('End'); // the last choice: "prefer not to say"
  await page.locator('#profile-parent-ins').fill('1 85 05 78 006 084 91');
  await page.locator('#profile-address-line1').focus();
  await page.keyboard.type('12 rue de la Paix');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Bât. B');
  await page.keyboard.press('Tab');
  await page.keyboard.type('7500');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Paris');
  await page.keyboard.press('Enter');
  const postalCode = page.locator('#profile-address-postal-code');
  await expect(postalCode).toHaveAttribute('aria-invalid', 'true');
  await expect(page.locator('#profile-address-postal-code-helper-text')).toHaveText(
    'Code postal invalide (5 chiffres en France).',
  );
  await expectAccessible(page, 'profile update with an address error');

  await postalCode.fill('75002');
  await page.getByTestId('profile-save').click();
  await expect(page.getByTestId('notification')).toContainText('Modifié avec succès');
  const row = withDatabase((db) =>
    db
      .prepare(
        'select gender, parent_ins, address_line1, address_line2, address_postal_code, address_city, address_country from users where email = ?',
      )
      .get(PATIENT.email),
  );
  expect(row).toEqual({
    gender: 'undisclosed',
    parent_ins: expect.stringMatching(/^v1\./),
    address_line1: '12 rue de la Paix',
    address_line2: 'Bât. B',
    address_postal_code: '75002',
    address_city: 'Paris',
    address_country: 'FR',
  });
  expect(JSON.stringify(row)).not.toContain('185057800608491');

  await page.goto('/profile');
  await expect(page.getByText('75002 Paris')).toBeVisible();
  await expect(page.getByText('Je préfère ne pas le dire')).toBeVisible();
  await expect(page.getByText('185057800608491')).toBeVisible();
  await expectAccessible(page, 'profile with the person fields');
});
