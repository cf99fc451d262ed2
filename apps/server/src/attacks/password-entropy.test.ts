import { passwordEntropyBits } from '@hygie/domain';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isAppError } from '../lib/app-error.js';
import { assertAcceptablePassword } from '../modules/password/service.js';
import type { TestApp } from '../test/helpers.js';
import { createTestApp, createUser, DIALECTS, signIn, TestClient } from '../test/helpers.js';

// ANS référentiel d'identification électronique: a password is checked for at least 50 bits of
// entropy when it is set or renewed. Registration, first login, reset, renewal and change all go
// through assertAcceptablePassword (the domain's checkPassword); 8 characters of digits and both
// cases are 47.6 bits, refused; 9 characters, or 8 with a symbol, pass.
const someone = { email: 'zoe.durand@example.fr', first_name: 'Zoé', last_name: 'Durand' };
const WEAK = 'Tq8mZ2vL';

function refusal(password: string): string | null {
  try {
    assertAcceptablePassword(password, someone);
    return null;
  } catch (error) {
    if (isAppError(error)) return error.code;
    throw error;
  }
}

describe('the 50-bit password rule', () => {
  it('refuses 8 characters with a digit, a lower- and an upper-case letter', () => {
    expect(passwordEntropyBits(WEAK)).toBeLessThan(50);
    expect(refusal(WEAK)).toBe('password_too_weak');
  });

  it('accepts 9 such characters, or 8 with a symbol', () => {
    expect(refusal('Tq8mZ2vLw')).toBeNull();
    expect(refusal('Tq8#Z2vL')).toBeNull();
  });
});

describe.each(DIALECTS)('the 50-bit password rule through the API on %s', (dialect) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp(dialect);
  });
  afterEach(() => t.close());

  it('a signed-in user cannot change to a 47-bit password, and can to a 53-bit one', async () => {
    const password = 'Kerguelen-Orque-1987-bleue';
    await createUser(t, { email: 'jeanne@example.fr', password, phone: '+33612345670' });
    const client = new TestClient(t.app);
    await signIn(t, client, 'jeanne@example.fr', password);
    const weak = await client.post('/api/profile/password', {
      currentPassword: password,
      password: WEAK,
      passwordConfirmation: WEAK,
    });
    expect(weak.statusCode).toBe(400);
    expect(weak.json()).toMatchObject({
      code: 'validation_error',
      data: {
        fields: [
          {
            path: 'password',
            message: 'password_rule',
            text: 'Le mot de passe doit contenir au moins 9 caractères (ou 8 avec un caractère spécial), dont 1 chiffre, 1 minuscule et 1 majuscule.',
          },
        ],
      },
    });
    const strong = await client.post('/api/profile/password', {
      currentPassword: password,
      password: 'Tq8mZ2vLw',
      passwordConfirmation: 'Tq8mZ2vLw',
    });
    expect(strong.statusCode).toBeLessThan(300);
  });
});
