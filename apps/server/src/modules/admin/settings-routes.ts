import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adminCguVersionListSchema,
  adminCguVersionTextsSchema,
  cguPublishedSchema,
  cguPublishInputSchema,
  errorEnvelopeSchema,
  SETTING_KEYS,
  settingListSchema,
  settingSchema,
  settingUpdateSchema,
} from '@hygie/domain';
import { z } from 'zod';
import type { RouteDeps } from '../route-deps.js';
import { listTermsVersions, publishTerms, termsTextsOfVersion } from '../consent/service.js';
import { listSettings } from '../settings/service.js';
import { changeSetting, resetSettingToDefault } from './service.js';

const params = z.object({ key: z.enum(SETTING_KEYS) });
const errors = {
  400: errorEnvelopeSchema,
  401: errorEnvelopeSchema,
  403: errorEnvelopeSchema,
  404: errorEnvelopeSchema,
};

/** Application settings (admin): read, update within bounds, reset to the default; every change audited. */
export const adminSettingsRoutes: FastifyPluginAsyncZod<RouteDeps> = async (
  app,
  { ctx, requireAdmin },
) => {
  app.get(
    '/api/admin/settings',
    {
      schema: {
        tags: ['admin'],
        summary: 'Application settings',
        response: { 200: settingListSchema, ...errors },
      },
    },
    async (request) => {
      await requireAdmin(request);
      return listSettings(ctx);
    },
  );

  app.put(
    '/api/admin/settings/:key',
    {
      schema: {
        tags: ['admin'],
        summary: 'Change a setting (null disables PASSWORD_EXPIRATION_DELAY)',
        params,
        body: settingUpdateSchema,
        response: { 200: settingSchema, ...errors },
      },
    },
    async (request) => {
      const admin = await requireAdmin(request);
      return changeSetting(ctx, request.params.key, request.body.value, {
        userId: admin.user_id,
        ip: request.ip,
      });
    },
  );

  app.delete(
    '/api/admin/settings/:key',
    {
      schema: {
        tags: ['admin'],
        summary: 'Reset a setting to its default',
        params,
        response: { 200: settingSchema, ...errors },
      },
    },
    async (request) => {
      const admin = await requireAdmin(request);
      return resetSettingToDefault(ctx, request.params.key, {
        userId: admin.user_id,
        ip: request.ip,
      });
    },
  );

  app.get(
    '/api/admin/cgu',
    {
      schema: {
        tags: ['admin'],
        summary:
          'The published terms versions: effective date, when and by whom, the hash of each language’s text, the one in force',
        response: { 200: adminCguVersionListSchema, ...errors },
      },
    },
    async (request) => {
      await requireAdmin(request);
      return listTermsVersions(ctx);
    },
  );

  app.get(
    '/api/admin/cgu/:version',
    {
      schema: {
        tags: ['admin'],
        summary: 'A published terms version’s text in every language, to start a new version from',
        params: z.object({ version: z.string().min(1).max(40) }),
        response: { 200: adminCguVersionTextsSchema, ...errors },
      },
    },
    async (request) => {
      await requireAdmin(request);
      return termsTextsOfVersion(ctx, request.params.version);
    },
  );

  app.post(
    '/api/admin/cgu',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Publish a new terms version with its text in every language: every user accepts it at the next sign-in',
        body: cguPublishInputSchema,
        response: {
          201: cguPublishedSchema,
          ...errors,
          409: errorEnvelopeSchema,
        },
      },
    },
    async (request, reply) => {
      const admin = await requireAdmin(request);
      const published = await publishTerms(ctx, request.body, {
        userId: admin.user_id,
        ip: request.ip,
      });
      return reply.status(201).send(published);
    },
  );
};
