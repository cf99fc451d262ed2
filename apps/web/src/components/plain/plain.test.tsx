import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { createI18n } from '../../app/i18n';
import { PlainAlert } from './alert';
import { PlainButton } from './button';
import { PlainPasswordField, PlainTextField } from './text-field';
import { I18nextProvider } from 'react-i18next';
import { AppEnvironment } from '../../app/app-environment';

describe('plain components (the login page, without MUI)', () => {
  it('names a text field by its label, hides the required asterisk, describes it by its help', () => {
    render(<PlainTextField id="f" label="Adresse" helperText="Votre adresse" required />);
    const input = screen.getByRole('textbox', { name: 'Adresse' });
    expect(input.hasAttribute('required')).toBe(true);
    expect(input.getAttribute('aria-invalid')).toBe('false');
    expect(screen.getByText('*', { exact: false }).getAttribute('aria-hidden')).toBe('true');
    expect(screen.getByRole('textbox', { description: 'Votre adresse' })).toBe(input);
  });

  it('marks a field in error and describes it by the message', () => {
    render(<PlainTextField id="f" label="Adresse" helperText="Ce champ est obligatoire." error />);
    const input = screen.getByRole('textbox', { name: 'Adresse' });
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(input.getAttribute('aria-describedby')).toBe('f-helper-text');
  });

  it('shows and hides a password with a named button', async () => {
    const i18n = await createI18n('en');
    render(
      <I18nextProvider i18n={i18n}>
        <AppEnvironment>
          <PlainPasswordField id="p" label="Password" />
        </AppEnvironment>
      </I18nextProvider>,
    );
    const input = screen.getByLabelText('Password');
    expect(input.getAttribute('type')).toBe('password');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Show password' }));
    expect(input.getAttribute('type')).toBe('text');
    expect(screen.getByRole('button', { name: 'Hide password' })).toBeTruthy();
  });

  it('keeps a waiting button named by its label, disabled and busy', () => {
    render(
      <PlainButton loading variant="contained">
        Se connecter
      </PlainButton>,
    );
    const button = screen.getByRole('button', { name: 'Se connecter' });
    expect(button.hasAttribute('disabled')).toBe(true);
    expect(button.getAttribute('aria-busy')).toBe('true');
  });

  it('says an alert as an alert unless told otherwise', () => {
    render(
      <>
        <PlainAlert severity="error">Refusé</PlainAlert>
        <PlainAlert severity="info" role="status">
          Session expirée
        </PlainAlert>
      </>,
    );
    expect(screen.getByRole('alert').textContent).toBe('Refusé');
    expect(screen.getByRole('status').textContent).toBe('Session expirée');
  });
});
