import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Assurance, MySession } from '@hygie/domain';
import { makeUser } from '../../test/factories';
import { json } from '../../test/fake-api';
import { renderScreen } from '../../test/render-screen';
import SessionsPage from './sessions-page';

// The account area shows the current session's level (issue #20) in plain words, with how to
// raise it.

const SESSIONS: MySession[] = [
  {
    id: 's-1',
    device: { browser: 'Firefox', os: 'Linux' },
    ip: '203.0.113.7',
    createdAt: '2025-03-01T10:00:00.000Z',
    lastSeenAt: '2025-03-01T10:30:00.000Z',
    methods: ['pwd', 'otp', 'totp'],
    level: 'substantial',
    complete: true,
    current: true,
  },
  {
    id: 's-2',
    device: { browser: 'Safari', os: 'iOS' },
    ip: null,
    createdAt: '2025-03-01T09:00:00.000Z',
    lastSeenAt: '2025-03-01T09:30:00.000Z',
    methods: ['pwd'],
    level: 'one_factor',
    complete: true,
    current: false,
  },
];

async function openSessions(assurance: Assurance, language: 'fr' | 'en' | 'ar' = 'fr') {
  await renderScreen(SessionsPage, {
    path: '/sessions',
    user: makeUser(),
    language,
    handlers: {
      'GET /api/me/sessions': () => json(200, SESSIONS),
      'GET /api/me/assurance': () => json(200, assurance),
    },
  });
  return screen.findByTestId('current-level-value');
}

describe('the current session’s level in the account area', () => {
  it('says a low level in words, what it rests on and how to raise it', async () => {
    const value = await openSessions({ level: 'low', amr: ['pwd', 'otp'], accountMinimum: null });
    expect(value.textContent).toBe('Niveau faible');
    const card = screen.getByTestId('current-level');
    expect(within(card).getByRole('heading', { level: 2 }).textContent).toBe(
      'Niveau de sécurité de cette connexion',
    );
    expect(card.textContent).toContain('Votre mot de passe et un code reçu par e-mail ou par SMS.');
    expect(card.textContent).toContain('clé d’accès ou avec le code d’une application');
    expect(
      within(card).getByRole('link', { name: 'Ajouter un moyen dans Mes appareils' }),
    ).toHaveProperty('pathname', '/devices');
  });

  it('says the authenticator app’s sign-in is substantial, and the account area’s minimum', async () => {
    const value = await openSessions({
      level: 'substantial',
      amr: ['pwd', 'totp'],
      accountMinimum: 'substantial',
    });
    expect(value.textContent).toBe('Niveau substantiel');
    expect(screen.getAllByTestId('session-row')[0]?.textContent).toContain(
      'mot de passe, code par e-mail et application d’authentification',
    );
    expect(screen.getByTestId('current-level-minimum').textContent).toBe(
      'Votre espace personnel demande au moins le niveau substantiel.',
    );
  });

  it('says when the level is the highest', async () => {
    await openSessions({ level: 'high', amr: ['ext'], accountMinimum: null });
    expect(screen.getByTestId('current-level').textContent).toContain(
      'C’est le niveau le plus élevé.',
    );
    expect(screen.queryByTestId('current-level-devices')).toBeNull();
  });

  it('shows each session’s level in the list', async () => {
    await openSessions({ level: 'substantial', amr: ['pwd', 'otp'], accountMinimum: null });
    const levels = (await screen.findAllByTestId('session-level')).map((cell) => cell.textContent);
    expect(levels).toEqual(['Substantiel', 'Un seul facteur']);
    expect(screen.getByRole('columnheader', { name: 'Niveau de sécurité' })).toBeTruthy();
  });

  it('speaks Arabic', async () => {
    const ar = await openSessions(
      { level: 'low', amr: ['pwd', 'sms'], accountMinimum: null },
      'ar',
    );
    expect(ar.textContent).toBe('المستوى: منخفض');
  });

  it('speaks English', async () => {
    const en = await openSessions(
      { level: 'substantial', amr: ['hwk', 'user'], accountMinimum: null },
      'en',
    );
    expect(en.textContent).toBe('Level: substantial');
  });
});
