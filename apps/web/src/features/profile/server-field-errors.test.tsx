import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeProfile } from '../../test/account-data';
import { elementById } from '../../test/dom';
import { makeUser } from '../../test/factories';
import { apiError, json } from '../../test/fake-api';
import { renderScreenAt } from '../../test/screens';

const byId = (id: string) => elementById(id, HTMLInputElement);

// The keys the domain's error map gives schema parts without a message of their own: the server
// sends them (with its own `text`), and the screen shows its translation, never zod's English.
describe('server field errors of the generic validation keys', () => {
  it('shows them translated in Arabic on their fields', async () => {
    await renderScreenAt({
      path: '/profile/update',
      user: makeUser(),
      language: 'ar',
      handlers: {
        'GET /api/profile': () => json(200, makeProfile()),
        'PATCH /api/profile': () =>
          apiError(400, 'validation_error', {
            fields: [
              { path: 'lastName', message: 'too_long', text: 'هذا النص طويل جدًا.' },
              { path: 'firstName', message: 'unknown_field', text: 'هذا الحقل غير متوقَّع.' },
            ],
          }),
      },
    });
    const user = userEvent.setup();
    await waitFor(() => expect(byId('profile-last-name')).toBeTruthy());
    await user.click(screen.getByTestId('profile-save'));
    await waitFor(() =>
      expect(byId('profile-last-name').getAttribute('aria-invalid')).toBe('true'),
    );
    const helper = (id: string) => document.getElementById(`${id}-helper-text`)?.textContent;
    expect(helper('profile-last-name')).toBe('هذا النص طويل جدًا.');
    expect(helper('profile-first-name')).toBe('هذا الحقل غير متوقَّع.');
    expect(screen.queryByTestId('form-error')).toBeNull();
  });
});
