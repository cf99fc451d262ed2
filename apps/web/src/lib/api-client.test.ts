import { describe, expect, it, vi } from 'vitest';
import { AccountState, currentUserSchema, type Brand, type Language } from '@hygie/domain';
import { apiError, fakeFetch, json } from '../test/fake-api';
import { makeUser } from '../test/factories';
import { ApiError, createApiClient } from './api-client';

const MFA_DATA = {
  user_identifier: 'u1',
  two_factor_providers: ['email', 'sms'],
  email_hint: 'j***@example.fr',
  sms_hint: '06 ** ** ** 42',
  sms_enabled: true,
};

function setup(options: { language?: Language; brand?: Brand | null } = {}) {
  const user = makeUser();
  const api = fakeFetch({
    'GET /api/me': () => json(200, user),
    'POST /api/login': () => json(200, user),
    'POST /api/session/extend': () => apiError(401, 'not_logged_in'),
    'GET /api/mfa-pending': () => apiError(401, 'two_factor_authentication_required', MFA_DATA),
    'POST /api/bad': () => apiError(401, 'bad_credentials'),
    'GET /api/broken': () => new Response('<html>', { status: 502 }),
  });
  const onAccountState = vi.fn();
  const client = createApiClient({
    getLanguage: () => options.language ?? 'fr',
    getBrand: () => (options.brand === undefined ? 'hygie' : options.brand),
    onAccountState,
    fetch: api.fetch,
  });
  return { client, calls: api.calls, onAccountState, user };
}

describe('api client', () => {
  it('adds l=<language> to every call, keeping the existing query', async () => {
    const { client, calls } = setup({ language: 'ar' });
    await client.request('GET', '/me?fields=all');
    expect(calls[0]?.url.pathname).toBe('/api/me');
    expect(calls[0]?.url.searchParams.get('l')).toBe('ar');
    expect(calls[0]?.url.searchParams.get('fields')).toBe('all');
  });

  it('sends credentials and the x-branding header of the configured brand', async () => {
    const { client, calls } = setup({ brand: 'telecare' });
    await client.get('/me');
    expect(calls[0]?.credentials).toBe('include');
    expect(calls[0]?.headers['x-branding']).toBe('telecare');
  });

  it('sends no x-branding header when no brand is configured', async () => {
    const { client, calls } = setup({ brand: null });
    await client.get('/me');
    expect(calls[0]?.headers).not.toHaveProperty('x-branding');
  });

  it('echoes the anti-forgery cookie in x-xsrf-token on unsafe methods only', async () => {
    document.cookie = 'XSRF-TOKEN=tok%2Ben';
    const { client, calls } = setup();
    await client.get('/me');
    await client.post('/login', { username: 'a', password: 'b' });
    expect(calls[0]?.headers).not.toHaveProperty('x-xsrf-token');
    expect(calls[1]?.headers['x-xsrf-token']).toBe('tok+en');
    expect(calls[1]?.headers['content-type']).toBe('application/json');
    expect(calls[1]?.body).toEqual({ username: 'a', password: 'b' });
  });

  it('reads the cookie named by the configuration', async () => {
    document.cookie = 'XSRF-TOKEN=default';
    document.cookie = 'hygie-xsrf=configured';
    const { client, calls } = setup();
    client.setXsrfCookieName('hygie-xsrf');
    await client.post('/login', {});
    expect(calls[0]?.headers['x-xsrf-token']).toBe('configured');
  });

  it('validates the response with the given schema', async () => {
    const { client, user } = setup();
    await expect(client.get('/me', currentUserSchema)).resolves.toEqual(user);
  });

  it('updates the account state from a coded error and still throws it', async () => {
    const { client, onAccountState } = setup();
    const failure = client.get('/mfa-pending');
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toMatchObject({
      status: 401,
      code: 'two_factor_authentication_required',
    });
    const error: unknown = await failure.catch((e: unknown) => e);
    if (!(error instanceof ApiError)) throw new Error('expected an ApiError');
    expect(error.dataOf('two_factor_authentication_required')).toEqual(MFA_DATA);
    expect(error.dataOf('account_locked')).toBeUndefined();
    expect(onAccountState).toHaveBeenCalledWith(AccountState.MFA_REQUIRED, MFA_DATA);
  });

  it('maps not_logged_in on any call to NOT_LOGGED_IN', async () => {
    const { client, onAccountState } = setup();
    await expect(client.post('/session/extend')).rejects.toMatchObject({ code: 'not_logged_in' });
    expect(onAccountState).toHaveBeenCalledWith(AccountState.NOT_LOGGED_IN, undefined);
  });

  it('leaves the state alone for codes that imply none', async () => {
    const { client, onAccountState } = setup();
    await expect(client.post('/bad', {})).rejects.toMatchObject({
      code: 'bad_credentials',
      serverMessage: 'server: bad_credentials',
    });
    expect(onAccountState).not.toHaveBeenCalled();
  });

  it('turns a non-JSON error into an ApiError without code', async () => {
    const { client } = setup();
    await expect(client.get('/broken')).rejects.toMatchObject({ status: 502, code: undefined });
  });

  it('turns a network failure into an ApiError with status 0', async () => {
    const client = createApiClient({
      getLanguage: () => 'fr',
      getBrand: () => null,
      onAccountState: vi.fn(),
      fetch: () => Promise.reject(new TypeError('Failed to fetch')),
    });
    await expect(client.get('/me')).rejects.toMatchObject({ status: 0 });
  });
});
