import { isCommonPassword } from '@hygie/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAppError } from '../lib/app-error.js';
import { assertAcceptablePassword } from '../modules/password/service.js';
import type { TestApp } from '../test/helpers.js';
import { createTestApp, createUser, signIn, TestClient } from '../test/helpers.js';

// Attacker suite (security issue, point 12): the passwords a guessing attack tries first. Each
// passes the composition rule (8+ characters, a digit, lower and upper case); each must be refused.
const GUESSES = [
  'Passw0rd!',
  'Password1',
  'P@ssw0rd2024',
  'Liverpool1',
  'Camille1',
  'Hygie2024',
  'Azerty123',
  'Marseille13',
  'Soleil2024!',
  'Bonjour2025',
  'Jetaime2024',
  'Chocolat1',
  'Football1',
  'Monkey123',
  'Dragon2024',
  'Iloveyou1',
  'Welcome1!',
  'Qwerty123',
  'Sunshine1',
  'Princess1',
  'Superman1',
  'Batman2024',
  'Pokemon1',
  'Starwars1',
  'Michael1',
  'Jennifer1',
  'Charlie1',
  'Thomas2024',
  'Nicolas1',
  'Julien2024',
  'Manon2012',
  'Chloe2020',
  'Sophie123',
  'Isabelle1',
  'Nathalie1',
  'Stephanie1',
  'Celine2023',
  'Christophe1',
  'Sebastien1',
  'Alexandre1',
  'Antoine1',
  'Maxime123',
  'Pauline1',
  'Lucas2015',
  'Louise2019',
  'Mohamed1',
  'Yasmine1',
  'Paris2024!',
  'Toulouse31',
  'Bordeaux33',
  'Bretagne29',
  'Vacances2024',
  'Printemps1',
  'Musique1',
  'Doudou2024',
  'Chouchou1',
  'Nounours1',
  'Docteur1',
  'Pharmacie1',
  'Télésoin2025',
];
const STRONG = ['Tq8#mZ2!vLp4', 'Vélo-rouge-sur-la-Loire-7', 'Kerguelen-Orque-1987-bleue'];
const someone = { email: 'zoe.durand@example.fr', first_name: 'Zoé', last_name: 'Durand' };

function refusal(password: string, user = someone): string | null {
  try {
    assertAcceptablePassword(password, user);
    return null;
  } catch (error) {
    if (isAppError(error)) return error.code;
    throw error;
  }
}

describe('common passwords', () => {
  it(`refuses each of ${GUESSES.length} first guesses as too common`, () => {
    expect(GUESSES.length).toBeGreaterThanOrEqual(60);
    const accepted = GUESSES.filter((pw) => refusal(pw) !== 'password_too_common');
    expect(accepted).toEqual([]);
  });

  it('accepts strong passwords and passphrases', () => {
    expect(STRONG.map((pw) => refusal(pw))).toEqual(STRONG.map(() => null));
  });

  it('refuses the user’s own names and e-mail', () => {
    expect(refusal('Durand2026!x')).toBe('validation_error');
    expect(refusal('Zoe.Durand-1')).toBe('validation_error');
  });

  describe('through the API', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp('sqlite');
    });
    afterAll(() => t.close());

    it('a signed-in user cannot change to one only the server’s dictionary holds', async () => {
      // Not on the browser's short list: the refusal is the server's.
      expect(isCommonPassword('Bernadette1')).toBe(false);
      const password = 'Kerguelen-Orque-1987-bleue';
      await createUser(t, { email: 'jeanne@example.fr', password, phone: '+33612345670' });
      const client = new TestClient(t.app);
      await signIn(t, client, 'jeanne@example.fr', password);
      const res = await client.post('/api/profile/password', {
        currentPassword: password,
        password: 'Bernadette1',
        passwordConfirmation: 'Bernadette1',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'password_too_common' });
    });
  });
});
