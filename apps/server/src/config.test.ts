import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('configuration from the environment', () => {
  it('opens on the embedded default with no configuration', () => {
    const c = loadConfig({});
    expect(c.port).toBe(3000);
    expect(c.database.kind).toBe('sqlite');
    expect(c.database.kind === 'sqlite' && c.database.file).toMatch(/data[/\\]hygie\.sqlite$/);
    expect(c.publicUrl.href).toBe('http://localhost:3000/');
    expect(c.smtp).toBeUndefined();
    expect(c.sms).toBeUndefined();
    expect(c.admin).toBeUndefined();
    expect(c.session).toEqual({ idleSeconds: 1800, absoluteSeconds: 43200 });
    expect(c.argon2).toEqual({ memoryCost: 19456, timeCost: 2, parallelism: 1 });
    expect(c.hsts).toBe(false);
  });

  it('sizes password hashing to the cores, and lets the operator set it and its queue', () => {
    const cores = availableParallelism();
    expect(loadConfig({}).hashing).toEqual({ concurrency: cores, queueLimit: cores * 32 });
    expect(loadConfig({ HASH_CONCURRENCY: '3' }).hashing).toEqual({
      concurrency: 3,
      queueLimit: 96,
    });
    expect(loadConfig({ HASH_CONCURRENCY: '2', HASH_QUEUE_LIMIT: '5' }).hashing).toEqual({
      concurrency: 2,
      queueLimit: 5,
    });
    expect(() => loadConfig({ HASH_CONCURRENCY: '0' })).toThrow(/HASH_CONCURRENCY/);
    expect(() => loadConfig({ HASH_QUEUE_LIMIT: 'many' })).toThrow(/HASH_QUEUE_LIMIT/);
  });

  it('runs one process unless WORKERS asks for more, on PostgreSQL, sharing the cores out', () => {
    expect(loadConfig({}).workers).toBe(1);
    const postgres = { DATABASE_URL: 'postgres://u@db:5432/hygie' };
    const four = loadConfig({ ...postgres, WORKERS: '4' });
    expect(four.workers).toBe(4);
    // Each process hashes on its share of the cores: together, one thread a core (at least one).
    const share = Math.max(1, Math.ceil(availableParallelism() / 4));
    expect(four.hashing).toEqual({ concurrency: share, queueLimit: share * 32 });
    expect(loadConfig({ ...postgres, WORKERS: '4', HASH_CONCURRENCY: '3' }).hashing).toEqual({
      concurrency: 3,
      queueLimit: 96,
    });
    expect(() => loadConfig({ WORKERS: '2' })).toThrow(
      /WORKERS above 1 needs PostgreSQL \(DATABASE_URL\)/,
    );
    expect(() =>
      loadConfig({ ...postgres, WORKERS: '2', NODE_ENV: 'test', HYGIE_TEST_CLOCK: '1' }),
    ).toThrow(/HYGIE_TEST_CLOCK runs one process/);
    expect(() => loadConfig({ ...postgres, WORKERS: '0' })).toThrow(/WORKERS/);
    expect(() => loadConfig({ ...postgres, WORKERS: 'all' })).toThrow(/WORKERS/);
  });

  it('uses PostgreSQL when DATABASE_URL is set', () => {
    const c = loadConfig({ DATABASE_URL: 'postgres://u@db:5432/hygie' });
    expect(c.database).toMatchObject({ kind: 'postgres', url: 'postgres://u@db:5432/hygie' });
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' }).database.kind).toBe('sqlite');
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ PUBLIC_URL: 'not a url' }, 'PUBLIC_URL'],
    [{ PUBLIC_URL: 'ftp://portal.example' }, 'PUBLIC_URL="ftp://portal.example": expected an http'],
    [{ SMS_GATEWAY_URL: 'file:///etc/passwd' }, 'SMS_GATEWAY_URL'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ SMTP_URL: 'http://mail' }, 'SMTP_URL'],
    [{ ADMIN_EMAIL: 'admin@hygie.test' }, 'ADMIN_EMAIL and ADMIN_PASSWORD'],
    [{ SESSION_IDLE_TIMEOUT: '3600', SESSION_ABSOLUTE_TIMEOUT: '60' }, 'SESSION_ABSOLUTE_TIMEOUT'],
    [{ SESSION_SECRET: 'short' }, 'SESSION_SECRET'],
    [{ NODE_ENV: 'production' }, 'SMTP_URL and SMS_GATEWAY_URL'],
    [{ TRUST_PROXY: 'true' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: 'yes' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.1, evil' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.0/33' }, 'TRUST_PROXY'],
  ])('refuses %j, naming the variable', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(name);
  });

  it('never prints a secret back: secret variables are hidden, URL credentials masked', () => {
    const error = (env: Record<string, string>) => {
      try {
        loadConfig(env);
      } catch (err) {
        return err instanceof ConfigError ? err.message : '';
      }
      return '';
    };
    expect(error({ SESSION_SECRET: 'short-secret' })).toBe(
      'Invalid configuration: SESSION_SECRET=(hidden): Too small: expected string to have >=32 characters',
    );
    const smtp = error({ SMTP_URL: 'http://mailer:pa55word@relay.example' });
    expect(smtp).toContain('SMTP_URL="http://***@relay.example"');
    expect(smtp).not.toContain('pa55word');
  });

  it.each([
    [undefined, false],
    ['false', false],
    ['1', 1],
    ['2', 2],
    ['10.0.0.1', '10.0.0.1'],
    ['10.0.0.0/8, 2001:db8::/32,loopback', '10.0.0.0/8,2001:db8::/32,loopback'],
  ])('reads TRUST_PROXY=%s as %j (a hop count or the proxies, never anyone)', (value, expected) => {
    expect(loadConfig(value === undefined ? {} : { TRUST_PROXY: value }).trustProxy).toEqual(
      expected,
    );
  });

  it('turns HSTS on for an HTTPS public URL', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://portal.example.fr' }).hsts).toBe(true);
  });
});
