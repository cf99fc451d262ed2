import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { A11Y_VARIANTS } from '../test/a11y';
import { typeCode } from '../test/code';
import { expectWellFormedScreen, type ScreenScenario } from '../test/screen-check';
import { MFA_DATA, pendingMe, SECURITY_SCREEN_HANDLERS } from '../test/stages';

// The security screens in their other states (a sign-in stage, a link, a later step), in every
// language and brand: one h1 in a <main>, the title, no error shown, and axe once per language.

const SCENARIOS: ScreenScenario[] = [
  {
    name: 'MFA, choosing the method',
    path: '/security/mfa',
    me: pendingMe('two_factor_authentication_required', MFA_DATA),
    act: () => screen.findByTestId('mfa-send'),
  },
  {
    name: 'MFA, typing the code',
    path: '/security/mfa',
    me: pendingMe('two_factor_authentication_required', MFA_DATA),
    act: async (user) => {
      await user.click(await screen.findByTestId('mfa-send'));
      return screen.findByTestId('mfa-submit');
    },
  },
  {
    name: 'e-mail verification stage',
    path: '/security/verify-email',
    me: pendingMe('email_not_verified'),
    act: () => screen.findByText(/marie\.dupont@example\.fr/),
  },
  {
    name: 'e-mail verification from the link',
    path: '/security/verify-email?email=marie%40example.fr&code=123456',
    act: () => screen.findByDisplayValue('marie@example.fr'),
  },
  {
    name: 'phone verification, the number',
    path: '/security/verify-mobile-phone',
    me: pendingMe('mobile_phone_not_verified'),
    act: () => screen.findByDisplayValue('06 12 34 56 78'),
  },
  {
    name: 'phone verification, the code',
    path: '/security/verify-mobile-phone',
    me: pendingMe('mobile_phone_not_verified'),
    act: async (user) => {
      await screen.findByDisplayValue('06 12 34 56 78');
      await user.click(screen.getByTestId('verify-phone-send'));
      return screen.findByTestId('verify-phone-submit');
    },
  },
  {
    name: 'terms to accept',
    path: '/security/accept-cgu',
    me: pendingMe('cgu_not_accepted'),
    act: () => screen.findByTestId('cgu-submit'),
  },
  {
    name: 'expired password',
    path: '/security/password-renewal',
    me: pendingMe('password_expired'),
    act: () => screen.findByTestId('renewal-submit'),
  },
  {
    name: 'password to create',
    path: '/security/password-renewal',
    me: pendingMe('password_creation_required'),
    act: () => screen.findByTestId('renewal-submit'),
  },
  {
    name: 'forgotten password, the code',
    path: '/security/forgot-password',
    act: async (user) => {
      await user.type(
        await screen.findByLabelText(/^Adresse e-mail, téléphone|^Email, phone|^البريد/),
        'a@b.fr',
      );
      await user.click(screen.getByTestId('forgot-send'));
      return screen.findByTestId('forgot-verify');
    },
  },
  {
    name: 'forgotten password, the new password',
    path: '/security/forgot-password',
    act: async (user) => {
      await user.type(
        await screen.findByLabelText(/^Adresse e-mail, téléphone|^Email, phone|^البريد/),
        'a@b.fr',
      );
      await user.click(screen.getByTestId('forgot-send'));
      await screen.findByTestId('forgot-verify');
      await typeCode(user, '123456');
      await user.click(screen.getByTestId('forgot-verify'));
      return screen.findByTestId('forgot-submit');
    },
  },
  {
    name: 'professional registration with its errors shown',
    path: '/security/register/professional',
    act: async (user) => {
      await user.click(await screen.findByTestId('register-submit'));
      await waitFor(() =>
        expect(document.getElementById('register-email')?.getAttribute('aria-invalid')).toBe(
          'true',
        ),
      );
    },
  },
  {
    name: 'first login with a valid link',
    path: '/security/first-login?personIdentifier=u7&email=paul%40example.fr&code=c',
    act: () => screen.findByTestId('first-login-submit'),
  },
  {
    name: 'lock account with its link',
    path: '/security/lock-account?email=paul%40example.fr&code=c',
    act: () => screen.findByTestId('lock-confirm'),
  },
  {
    name: 'account locked, named',
    path: '/security/account-locked?username=paul%40example.fr',
    act: () => screen.findByRole('link', { name: 'support@hygie.example' }),
  },
];

describe.each(A11Y_VARIANTS)(
  'security screens in their other states, in $language with the $brand brand',
  (variant) => {
    it.each(SCENARIOS.map((scenario) => [scenario.name, scenario] as const))(
      `%s: one h1 in a <main>, its title${variant.axe ? ', and passes axe' : ''}`,
      (_name, scenario) =>
        expectWellFormedScreen(
          {
            ...scenario,
            handlers: { ...SECURITY_SCREEN_HANDLERS, ...scenario.handlers },
            noFormError: true,
          },
          variant,
        ),
    );
  },
);
