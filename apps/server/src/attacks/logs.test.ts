import { describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { ADMIN, openTestDatabase, testConfig, TestClient } from '../test/helpers.js';

// Attacker suite (security issue, point 11): whoever reads the logs (an operator, a log pipeline,
// a leaked archive) must not find codes, link tokens, passwords or personal data in them.
describe('the server log', () => {
  it('keeps codes, tokens, passwords and addresses out of every line', async () => {
    const lines: string[] = [];
    const { handle, drop } = await openTestDatabase('sqlite');
    const built = await buildApp(testConfig({ LOG_LEVEL: 'debug' }), {
      database: handle,
      logger: { stream: { write: (line: string) => lines.push(line) } },
    });
    try {
      const client = new TestClient(built.app);
      await client.get('/security/first-login?personIdentifier=P-SECRET-1&code=TOKEN-SECRET-2');
      await client.get('/api/dev/outbox?to=jeanne.secret%40example.fr');
      await client.get('/api/admin/users?q=durand-secret');
      await client.post('/api/login', { username: ADMIN.email, password: 'Wrong-Secret-3!' });
      await client.post('/api/password/forgot/verify?code=CODE-SECRET-4', { code: '123456' });
      // Credentials in headers: a session cookie, a bearer token, an anti-forgery token.
      await client.request({
        method: 'POST',
        url: '/api/logout',
        headers: {
          cookie: 'hygie_session=COOKIE-SECRET-5',
          authorization: 'Bearer BEARER-SECRET-6',
          'x-xsrf-token': 'XSRF-SECRET-7',
        },
        xsrf: false,
      });
      await client.get('/metrics', { authorization: 'Bearer BEARER-SECRET-8' });
      expect(lines.length).toBeGreaterThan(5);
      const log = lines.join('\n');
      for (const secret of [
        'P-SECRET-1',
        'TOKEN-SECRET-2',
        'jeanne.secret',
        'durand-secret',
        'Wrong-Secret-3',
        'CODE-SECRET-4',
        'COOKIE-SECRET-5',
        'BEARER-SECRET-6',
        'XSRF-SECRET-7',
        'BEARER-SECRET-8',
        ADMIN.password,
      ]) {
        expect(log).not.toContain(secret);
      }
      // What an operator needs stays: the path and the names of the parameters.
      expect(log).toContain('/security/first-login?personIdentifier=…&code=…');
    } finally {
      await built.app.close();
      await drop();
    }
  });
});
