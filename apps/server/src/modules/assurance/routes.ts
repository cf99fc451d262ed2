import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  assuranceLevelResultSchema,
  assurancePasskeyInputSchema,
  assuranceQuerySchema,
  assuranceSchema,
  assuranceSettingsInputSchema,
  assuranceSettingsSchema,
  assuranceTotpInputSchema,
  errorEnvelopeSchema,
} from '@hygie/domain';
import { z } from 'zod';
import type { RouteDeps } from '../route-deps.js';
import {
  assuranceOf,
  assuranceSettings,
  changeAssuranceSettings,
  stepUpPasskeyOptions,
  stepUpWithPasskey,
  stepUpWithTotp,
} from './service.js';

const errors = {
  400: errorEnvelopeSchema,
  401: errorEnvelopeSchema,
  403: errorEnvelopeSchema,
  429: errorEnvelopeSchema,
};
const ceremonySchema = z.object({
  challengeId: z.string(),
  options: z.record(z.string(), z.unknown()),
});

/**
 * Levels of assurance (docs/oidc.md): the current session's level and the means that raise it,
 * the step-ups themselves, and the admin's settings (the account area's minimum, the mapping).
 */
export const assuranceRoutes: FastifyPluginAsyncZod<RouteDeps> = async (
  app,
  { ctx, requireSession, requireAdmin },
) => {
  app.get(
    '/api/me/assurance',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['self-service'],
        summary:
          'My session’s level of assurance and methods; with ?level=, whether it reaches that level and the means that would',
        querystring: assuranceQuerySchema,
        response: { 200: assuranceSchema, ...errors },
      },
    },
    async (request) => {
      const session = await requireSession(request);
      return assuranceOf(ctx, session, request.query.level);
    },
  );

  app.post(
    '/api/me/assurance/totp',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['self-service'],
        summary: 'Raise my session with a code of my authenticator app',
        body: assuranceTotpInputSchema,
        response: { 200: assuranceLevelResultSchema, ...errors },
      },
    },
    async (request) => {
      const session = await requireSession(request);
      return { level: await stepUpWithTotp(ctx, session, request.body.code, request.ip) };
    },
  );

  app.post(
    '/api/me/assurance/passkey/options',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['self-service'],
        summary: 'WebAuthn options to raise my session with one of my passkeys',
        response: { 200: ceremonySchema, ...errors },
      },
    },
    async (request) => {
      const session = await requireSession(request);
      return stepUpPasskeyOptions(ctx, session);
    },
  );

  app.post(
    '/api/me/assurance/passkey',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['self-service'],
        summary: 'Raise my session with one of my passkeys (user verification required)',
        body: assurancePasskeyInputSchema,
        response: { 200: assuranceLevelResultSchema, ...errors },
      },
    },
    async (request) => {
      const session = await requireSession(request);
      return { level: await stepUpWithPasskey(ctx, session, request.body, request.ip) };
    },
  );

  app.get(
    '/api/admin/settings/assurance',
    {
      schema: {
        tags: ['admin'],
        summary: 'Levels of assurance: the account area’s minimum and the mapping in force',
        response: { 200: assuranceSettingsSchema, ...errors },
      },
    },
    async (request) => {
      await requireAdmin(request);
      return assuranceSettings(ctx);
    },
  );

  app.put(
    '/api/admin/settings/assurance',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Change the account area’s minimum level and/or the mapping (mapping null: the default)',
        body: assuranceSettingsInputSchema,
        response: { 200: assuranceSettingsSchema, ...errors },
      },
    },
    async (request) => {
      const admin = await requireAdmin(request);
      return changeAssuranceSettings(ctx, request.body, { userId: admin.user_id, ip: request.ip });
    },
  );
};
