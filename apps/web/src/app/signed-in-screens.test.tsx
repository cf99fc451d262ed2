import { screen, waitFor, within } from '@testing-library/react';
import { expect } from 'vitest';
import { makeProfile } from '../test/account-data';
import { json } from '../test/fake-api';
import { describeScreens, type SignedInScenario } from '../test/signed-in-screens';

// The signed-in area (and the OAuth error page) in its states, in every language and brand; the
// admin screens are in admin-screens.test.tsx.

const professional = () =>
  json(
    200,
    makeProfile({
      profile: 'professional',
      identifierType: 'RPPS',
      identifier: '10000000007',
      job: 'Médecin',
    }),
  );

const SCENARIOS: SignedInScenario[] = [
  {
    name: 'dashboard with attention',
    path: '/',
    act: () => screen.findAllByTestId('attention-item'),
  },
  {
    name: 'profile, patient, e-mail change code',
    path: '/profile',
    act: async (user) => {
      await user.click(await screen.findByTestId('profile-email-change'));
      await user.type(document.getElementById('profile-email-new')!, 'new@example.fr');
      await user.type(document.getElementById('profile-email-password')!, 'Secret123');
      await user.click(screen.getByTestId('profile-email-send'));
      return screen.findByTestId('code-input');
    },
  },
  {
    name: 'profile, professional, phone change form',
    path: '/profile',
    handlers: { 'GET /api/profile': professional },
    act: async (user) => {
      await user.click(await screen.findByTestId('profile-phone-change'));
      return screen.findByTestId('profile-phone-send');
    },
  },
  {
    name: 'profile editor, patient, with errors',
    path: '/profile/update',
    act: async (user) => {
      await waitFor(() => expect(document.getElementById('profile-first-name')).toBeTruthy());
      await user.clear(document.getElementById('profile-first-name')!);
      await user.click(screen.getByTestId('profile-save'));
      await waitFor(() =>
        expect(document.getElementById('profile-first-name')?.getAttribute('aria-invalid')).toBe(
          'true',
        ),
      );
    },
  },
  {
    name: 'profile editor, professional',
    path: '/profile/update',
    handlers: { 'GET /api/profile': professional },
    act: () => waitFor(() => expect(document.getElementById('profile-identifier')).toBeTruthy()),
  },
  {
    name: 'devices, delete confirmation',
    path: '/devices',
    act: async (user) => {
      const rows = await screen.findAllByTestId('device-row');
      await user.click(within(rows[1]!).getByTestId('device-delete'));
      return screen.findByTestId('confirm-dialog');
    },
  },
  {
    name: 'devices, none',
    path: '/devices',
    handlers: { 'GET /api/devices': () => json(200, []) },
    act: () => screen.findByTestId('devices-empty'),
  },
  { name: 'services', path: '/services', act: () => screen.findAllByTestId('service-card') },
  {
    name: 'services, support dialog',
    path: '/services',
    act: async (user) => {
      await user.click(await screen.findByTestId('support-open'));
      return within(await screen.findByTestId('support-dialog')).findByText('Support Hygie');
    },
  },
  {
    name: 'oauth error naming the platform',
    path: '/oauth-error?error=access_denied&client_id=imagerie',
    anonymous: true,
    handlers: {
      'GET /api/platforms/by-client/imagerie': () =>
        json(200, { name: 'Imagerie', url: 'https://imagerie.example.fr' }),
    },
    act: () => screen.findByTestId('oauth-error-platform-link'),
  },
];

describeScreens('signed-in screens', SCENARIOS);
