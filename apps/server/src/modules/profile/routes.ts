import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  changeVerifyInputSchema,
  codeSentSchema,
  emailChangeInputSchema,
  errorEnvelopeSchema,
  okSchema,
  passwordChangeInputSchema,
  phoneChangeRequestSchema,
  profileSchema,
  profileUpdateSchema,
} from '@hygie/domain';
import type { FastifyRequest } from 'fastify';
import type { RouteDeps } from '../route-deps.js';
import type { RequestMeta } from './service.js';
import {
  changePassword,
  confirmContactChange,
  getProfile,
  requestContactChange,
  updateProfile,
} from './service.js';

const errors = {
  400: errorEnvelopeSchema,
  401: errorEnvelopeSchema,
  403: errorEnvelopeSchema,
  409: errorEnvelopeSchema,
  429: errorEnvelopeSchema,
};

function metaOf(request: FastifyRequest): RequestMeta {
  return { ip: request.ip, language: request.language, brand: request.brand };
}

/** My profile: person fields, e-mail and phone changes confirmed by code, password change. */
export const profileRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, deps) => {
  const { ctx, requireSession, nudgeOutbox } = deps;

  async function userIdOf(request: FastifyRequest): Promise<string> {
    return (await requireSession(request)).user_id;
  }

  app.get(
    '/api/profile',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['profile'],
        summary: 'My profile',
        response: { 200: profileSchema, ...errors },
      },
    },
    async (request) => getProfile(ctx, await userIdOf(request)),
  );

  app.patch(
    '/api/profile',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['profile'],
        summary: 'Edit my person fields',
        body: profileUpdateSchema,
        response: { 200: profileSchema, ...errors },
      },
    },
    async (request) => updateProfile(ctx, await userIdOf(request), request.body, metaOf(request)),
  );

  app.post(
    '/api/profile/email',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['profile'],
        summary:
          'Change my e-mail: a code goes to the new address, which replaces the old once verified',
        body: emailChangeInputSchema,
        response: { 200: codeSentSchema, ...errors },
      },
    },
    async (request) => {
      const { email, currentPassword } = request.body;
      const sent = await requestContactChange(
        ctx,
        await userIdOf(request),
        'email',
        { value: email, currentPassword },
        metaOf(request),
      );
      nudgeOutbox();
      return sent;
    },
  );

  app.post(
    '/api/profile/email/verify',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['profile'],
        summary: 'Confirm the new e-mail with its code',
        body: changeVerifyInputSchema,
        response: { 200: profileSchema, ...errors },
      },
    },
    async (request) => {
      const userId = await userIdOf(request);
      const profile = await confirmContactChange(
        ctx,
        userId,
        'email',
        request.body.code,
        metaOf(request),
      );
      nudgeOutbox();
      return profile;
    },
  );

  app.post(
    '/api/profile/phone',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['profile'],
        summary:
          'Change my mobile phone: an SMS code confirms the new number before it replaces the old',
        body: phoneChangeRequestSchema,
        response: { 200: codeSentSchema, ...errors },
      },
    },
    async (request) => {
      const { phone, currentPassword } = request.body;
      const sent = await requestContactChange(
        ctx,
        await userIdOf(request),
        'phone',
        { value: phone, currentPassword },
        metaOf(request),
      );
      nudgeOutbox();
      return sent;
    },
  );

  app.post(
    '/api/profile/phone/verify',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['profile'],
        summary: 'Confirm the new mobile phone with its SMS code',
        body: changeVerifyInputSchema,
        response: { 200: profileSchema, ...errors },
      },
    },
    async (request) => {
      const userId = await userIdOf(request);
      const profile = await confirmContactChange(
        ctx,
        userId,
        'phone',
        request.body.code,
        metaOf(request),
      );
      nudgeOutbox();
      return profile;
    },
  );

  app.post(
    '/api/profile/password',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['profile'],
        summary:
          'Change my password (the current one is required); ends my other sessions and trusted devices',
        body: passwordChangeInputSchema,
        response: { 200: okSchema, ...errors },
      },
    },
    async (request) => {
      const session = await requireSession(request);
      await changePassword(
        ctx,
        { userId: session.user_id, sessionId: session.id },
        request.body,
        metaOf(request),
      );
      nudgeOutbox();
      return { ok: true as const };
    },
  );
};
