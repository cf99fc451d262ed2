import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorEnvelopeSchema, okSchema, trustedDeviceListSchema } from '@hygie/domain';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.js';
import { hashToken } from '../../lib/tokens.js';
import { recordAudit } from '../audit/service.js';
import { describeUserAgent } from '../../lib/user-agent.js';
import type { RouteDeps } from '../route-deps.js';

const errors = { 401: errorEnvelopeSchema, 403: errorEnvelopeSchema, 404: errorEnvelopeSchema };

/** My devices: the user's own trusted devices only (another user's id answers 404). */
export const deviceRoutes: FastifyPluginAsyncZod<RouteDeps> = async (
  app,
  { ctx, cookies, requireSession },
) => {
  app.get(
    '/api/devices',
    {
      schema: {
        tags: ['devices'],
        summary: 'My trusted devices',
        response: { 200: trustedDeviceListSchema, ...errors },
      },
    },
    async (request) => {
      const session = await requireSession(request);
      const rows = await ctx.db
        .selectFrom('trusted_devices')
        .selectAll()
        .where('user_id', '=', session.user_id)
        .where('expires_at', '>', ctx.clock.now())
        .orderBy('last_used_at', 'desc')
        .execute();
      const cookie = request.cookies[cookies.deviceCookie];
      const cookieHash = cookie ? hashToken(cookie) : null;
      return rows.map((d) => ({
        id: d.id,
        userAgent: d.user_agent,
        label: describeUserAgent(d.user_agent),
        ip: d.ip,
        creationDate: new Date(d.created_at).toISOString(),
        lastUsed: new Date(d.last_used_at).toISOString(),
        expiresAt: new Date(d.expires_at).toISOString(),
        current: d.token_hash === cookieHash || d.id === session.trusted_device_id,
      }));
    },
  );

  app.delete(
    '/api/devices/:id',
    {
      schema: {
        tags: ['devices'],
        summary: 'Forget one of my trusted devices',
        params: z.object({ id: z.string().min(1).max(64) }),
        response: { 200: okSchema, ...errors },
      },
    },
    async (request) => {
      const session = await requireSession(request);
      const result = await ctx.db.transaction().execute(async (trx) => {
        const deleted = await trx
          .deleteFrom('trusted_devices')
          .where('id', '=', request.params.id)
          .where('user_id', '=', session.user_id)
          .executeTakeFirst();
        if (Number(deleted.numDeletedRows) === 1) {
          await recordAudit(trx, ctx.clock, {
            action: 'trusted_device_revoked',
            actorId: session.user_id,
            targetId: request.params.id,
            ip: request.ip,
          });
        }
        return Number(deleted.numDeletedRows);
      });
      if (result !== 1) throw new AppError('not_found');
      return { ok: true as const };
    },
  );
};
