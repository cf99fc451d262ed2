import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { currentUserSchema, errorEnvelopeSchema, publicConfigSchema } from '@hygie/domain';
import { fastSerializerOf, responseSerializer } from './serializer.js';

const route = (schema: z.ZodType) => ({ schema, method: 'GET', url: '/t', httpStatus: '200' });

const user = {
  type: 'person',
  id: '0190',
  email: 'jeanne@hygie.test',
  emailVerified: true,
  phone: null,
  phoneVerified: false,
  firstName: 'Jeanne',
  lastName: null,
  profile: null,
  status: 'active',
  roles: ['admin'],
  language: 'ar',
  session: { expiresAt: '2026-11-27T10:00:00.000Z', absoluteExpiresAt: '2026-11-27T20:00:00.000Z' },
};

describe.each([false, true])('the response serialiser (cross-check %s)', (crossCheck) => {
  const compile = responseSerializer({ crossCheck });

  it('writes what zod writes: nulls, enums, arrays, nested objects, in the schema’s order', () => {
    const written = compile(route(currentUserSchema))(user);
    expect(written).toBe(JSON.stringify(currentUserSchema.parse(user)));
  });

  it('writes only the declared properties: a field the schema does not name never leaves', () => {
    const leaky = {
      ...user,
      password_hash: '$argon2id$…',
      session: { ...user.session, token: 's' },
    };
    const written: unknown = JSON.parse(compile(route(currentUserSchema))(leaky));
    expect(written).not.toHaveProperty('password_hash');
    expect(written).toHaveProperty('session', user.session);
  });

  it('leaves unions (the error envelope) to zod, with the same output', () => {
    const envelope = { code: 'not_found', message: 'Introuvable.' };
    expect(compile(route(errorEnvelopeSchema))(envelope)).toBe(
      JSON.stringify(errorEnvelopeSchema.parse(envelope)),
    );
  });
});

describe('the cross-check', () => {
  it('still refuses a response its schema does not allow (zod’s validation)', () => {
    const write = responseSerializer({ crossCheck: true })(route(currentUserSchema));
    expect(() => write({ ...user, status: 'unknown' })).toThrow();
  });
});

describe('the schemas written in zod/mini (the first screens’)', () => {
  it('are written by the fast serialiser too, as zod writes them', () => {
    const config = {
      release: '1.4.2',
      sentryDsn: null,
      sentryEnvironment: 'production',
      xsrfCookieName: 'XSRF-TOKEN',
      contactEmail: 'contact@hygie.test',
      sessionWarningSeconds: 300,
      identityProviders: ['psc'],
      secret: 'never written',
    };
    const fast = fastSerializerOf(publicConfigSchema);
    expect(fast).not.toBeNull();
    const { secret: _secret, ...declared } = config;
    expect(fast?.(config)).toBe(JSON.stringify(declared));
    expect(
      responseSerializer({ crossCheck: true })({
        ...route(currentUserSchema),
        schema: publicConfigSchema,
      })(config),
    ).toBe(JSON.stringify(declared));
  });
});
