import { describe, expect, it } from 'vitest';
import { z } from 'zod';
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

  it('writes the error envelope by its code’s variant, as zod writes it, data included', () => {
    const write = compile(route(errorEnvelopeSchema));
    for (const envelope of [{ code: 'not_found', message: 'Introuvable.' }, secondFactor]) {
      expect(write(envelope)).toBe(JSON.stringify(errorEnvelopeSchema.parse(envelope)));
    }
  });

  it('leaves a code the catalogue does not know to zod, which refuses it', () => {
    const write = compile(route(errorEnvelopeSchema));
    expect(() => write({ code: 'no_such_code', message: 'x' })).toThrow();
  });
});

/** An error envelope whose code carries data (a sign-in's second-factor stage). */
const secondFactor = {
  code: 'two_factor_authentication_required',
  message: 'Une vérification en deux étapes est requise.',
  data: {
    user_identifier: '0190',
    two_factor_providers: ['email', 'sms'],
    email_hint: 'j•••••e@hygie.test',
    sms_hint: null,
    sms_enabled: false,
    sms_unavailable: 'phone_unverified',
  },
};

describe('the error envelope (a discriminated union)', () => {
  it('is written by a fast serialiser of its own, not left to zod', () => {
    const fast = fastSerializerOf(errorEnvelopeSchema);
    expect(fast?.(secondFactor)).toBe(JSON.stringify(secondFactor));
  });

  it('writes only what the code’s variant declares: a field beside its data never leaves', () => {
    const leaky = { ...secondFactor, stack: 'Error: …', data: { ...secondFactor.data, userId: 7 } };
    const written: unknown = JSON.parse(fastSerializerOf(errorEnvelopeSchema)?.(leaky) ?? '{}');
    expect(written).toEqual(secondFactor);
  });

  it('leaves a union without a discriminator to zod', () => {
    const either = z.union([z.object({ name: z.string() }), z.object({ count: z.number() })]);
    expect(fastSerializerOf(z.object({ value: either }))).toBeNull();
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
