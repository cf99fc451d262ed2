import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  errorEnvelopeSchema,
  SETTING_KEYS,
  settingListSchema,
  settingSchema,
  settingUpdateSchema,
} from '@hygie/domain';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.js';
import { recordAudit } from '../audit/service.js';
import type { RouteDeps } from '../route-deps.js';
import {
  listSettings,
  loadSettings,
  resetSetting,
  saveSetting,
  SETTING_BOUNDS,
} from '../settings/service.js';
import { requireAdmin } from './guard.js';

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
  { ctx, requireSession },
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
      await requireAdmin(requireSession, request);
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
      const admin = await requireAdmin(requireSession, request);
      const { key } = request.params;
      const { value } = request.body;
      const bounds = SETTING_BOUNDS[key];
      if (value === null ? !bounds.nullable : value < bounds.min || value > bounds.max) {
        throw new AppError('settings_update_failed', {
          key,
          min: bounds.min,
          max: bounds.max,
          nullable: bounds.nullable,
        });
      }
      const before = await loadSettings(ctx);
      if (
        key === 'SESSION_IDLE_TIMEOUT' &&
        value !== null &&
        value > before.SESSION_ABSOLUTE_TIMEOUT
      ) {
        throw new AppError('settings_update_failed', { key, max: before.SESSION_ABSOLUTE_TIMEOUT });
      }
      if (
        key === 'SESSION_ABSOLUTE_TIMEOUT' &&
        value !== null &&
        value < before.SESSION_IDLE_TIMEOUT
      ) {
        throw new AppError('settings_update_failed', { key, min: before.SESSION_IDLE_TIMEOUT });
      }
      const now = ctx.clock.now();
      await ctx.db.transaction().execute(async (trx) => {
        await saveSetting(trx, key, value as never, admin.user_id, now);
        await recordAudit(trx, ctx.clock, {
          action: 'setting_changed',
          actorId: admin.user_id,
          ip: request.ip,
          details: { key, old: before[key], new: value },
        });
      });
      const list = await listSettings(ctx);
      const updated = list.find((s) => s.key === key);
      if (!updated) throw new AppError('settings_load_failed');
      return updated;
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
      const admin = await requireAdmin(requireSession, request);
      const { key } = request.params;
      const before = await loadSettings(ctx);
      await ctx.db.transaction().execute(async (trx) => {
        await resetSetting(trx, key);
        await recordAudit(trx, ctx.clock, {
          action: 'setting_reset',
          actorId: admin.user_id,
          ip: request.ip,
          details: { key, old: before[key] },
        });
      });
      const updated = (await listSettings(ctx)).find((s) => s.key === key);
      if (!updated) throw new AppError('settings_reset_failed');
      return updated;
    },
  );
};
