import { expect, test } from '@playwright/test';
import { expectAccessible, registerPatient, screenshot, signInPatient } from './support.js';

// The account's self-service (issue #15): one person signed in in two browsers; from the first,
// "sign out everywhere else" ends the second at once, and the activity shows both sign-ins.

const stamp = Date.now();
const PERSON = {
  email: `self-service-${stamp}@hygie.test`,
  password: 'Copper-Meadow-71',
  phone: '06 44 55 66 31',
  e164: '+33644556631',
};

test('sessions: two browsers listed, "sign out everywhere else" ends the other; activity shows the sign-ins', async ({
  browser,
  request,
}) => {
  await registerPatient(request, PERSON);
  const first = await (await browser.newContext({ locale: 'fr-FR' })).newPage();
  const second = await (await browser.newContext({ locale: 'fr-FR' })).newPage();
  await signInPatient(first, request, PERSON);
  await signInPatient(second, request, PERSON);

  // From the first browser: both sessions, this one marked; reached from the main navigation.
  await first
    .getByRole('navigation', { name: 'Navigation principale' })
    .getByRole('link', {
      name: 'Sécurité',
    })
    .click();
  await expect(first).toHaveURL(/\/sessions$/);
  const rows = first.getByTestId('session-row');
  await expect(rows).toHaveCount(2);
  await expect(first.locator('[data-testid="session-row"][data-current="true"]')).toHaveCount(1);
  await expect(rows.first()).toContainText(/sur/);
  await expectAccessible(first, 'sessions');
  await screenshot(first, 'sessions-fr-hygie');

  await first.getByTestId('sessions-end-others').click();
  await first.getByTestId('confirm-yes').click();
  await expect(first.getByTestId('notification')).toContainText('1 autre session a été terminée.');
  await expect(rows).toHaveCount(1);
  await expect(first.getByTestId('sessions-alone')).toBeVisible();

  // The second browser's next navigation lands on the sign-in page.
  await second.goto('/profile');
  await expect(second).toHaveURL(/\/security\/login/);

  // The activity: both sign-ins (password and second factor), newest first.
  await first
    .getByRole('navigation', { name: 'Sécurité du compte' })
    .getByRole('link', {
      name: 'Activité',
    })
    .click();
  await expect(first).toHaveURL(/\/activity$/);
  await expect(first.locator('[data-testid="activity-row"][data-action="login"]')).toHaveCount(2);
  await expect(
    first.locator('[data-testid="activity-row"][data-action="sessions_ended"]'),
  ).toHaveCount(1);
  await expect(first.getByTestId('activity-row').first()).toContainText('Sessions déconnectées');
  await expectAccessible(first, 'activity');
  await screenshot(first, 'activity-fr-hygie');

  // No platform was given access yet; the three pages in Arabic, right to left.
  await first.goto('/platform-access');
  await expect(first.getByTestId('consents-empty')).toBeVisible();
  await expectAccessible(first, "platforms' access");
  await first.getByTestId('language-switcher').click();
  await first.getByRole('menuitem', { name: 'العربية' }).click();
  await expect(first.locator('html')).toHaveAttribute('dir', 'rtl');
  for (const [path, ready] of [
    ['/sessions', 'session-row'],
    ['/activity', 'activity-row'],
    ['/platform-access', 'consents-empty'],
  ] as const) {
    await first.goto(path);
    await expect(first.getByTestId(ready).first()).toBeVisible();
    await expectAccessible(first, `${path} ar`);
    await screenshot(first, `${path.slice(1)}-ar-hygie`);
  }
});
