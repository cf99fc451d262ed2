import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { errorHandler } from './error-handler.js';

// The `fields` of a schema refusal, on a route of its own: the server's routes drop unknown keys,
// so none has a strict object to show how an unknown one is named.
describe('the fields of a validation_error', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = Fastify();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    await app.register(errorHandler);
    app.post(
      '/strict',
      {
        schema: {
          body: z.strictObject({
            name: z.string().max(5),
            kind: z.enum(['a', 'b']),
            inner: z.strictObject({ on: z.boolean() }).optional(),
          }),
        },
      },
      async () => ({ ok: true }),
    );
    app.post(
      '/worded',
      { schema: { body: z.object({ code: z.string().regex(/^\d+$/, 'Digits only, please') }) } },
      async () => ({ ok: true }),
    );
    await app.ready();
  });
  afterAll(() => app.close());

  const post = (payload: unknown, language: string) =>
    app.inject({
      method: 'POST',
      url: `/strict?l=${language}`,
      payload: JSON.stringify(payload),
      headers: { 'content-type': 'application/json' },
    });

  it('names each unknown key, and gives every field its key and its text in the language', async () => {
    const res = await post(
      { name: 'too long', kind: 'c', extra: 1, other: 2, inner: { on: 'yes', deep: true } },
      'ar',
    );
    expect(res.statusCode).toBe(400);
    const body = res.json<{ code: string; data: { fields: unknown[] } }>();
    expect(body.code).toBe('validation_error');
    expect(body.data.fields).toEqual(
      expect.arrayContaining([
        { path: 'name', message: 'too_long', text: 'هذا النص طويل جدًا.' },
        { path: 'kind', message: 'choice_invalid', text: 'هذا الاختيار غير متاح.' },
        { path: 'extra', message: 'unknown_field', text: 'هذا الحقل غير متوقَّع.' },
        { path: 'other', message: 'unknown_field', text: 'هذا الحقل غير متوقَّع.' },
        { path: 'inner.on', message: 'field_invalid', text: 'قيمة غير صالحة.' },
        { path: 'inner.deep', message: 'unknown_field', text: 'هذا الحقل غير متوقَّع.' },
      ]),
    );
    expect(body.data.fields).toHaveLength(6);
  });

  it('says a missing body is required, in French', async () => {
    const res = await app.inject({ method: 'POST', url: '/strict?l=fr' });
    expect(res.json()).toMatchObject({
      code: 'validation_error',
      data: {
        fields: [{ path: '', message: 'field_required', text: 'Ce champ est obligatoire.' }],
      },
    });
  });

  it('reads a message that is not a validation key as field_invalid, in English', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/worded?l=en',
      payload: { code: 'abc' },
    });
    expect(res.json()).toMatchObject({
      data: { fields: [{ path: 'code', message: 'field_invalid', text: 'Invalid value.' }] },
    });
  });
});
