import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AdminUser } from '@hygie/domain';
import {
  errorEnvelopeSchema,
  invitationInputSchema,
  invitationResultSchema,
  normalizeMobilePhone,
  okSchema,
  userSearchQuerySchema,
  userSearchResultSchema,
} from '@hygie/domain';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.js';
import { recordAudit } from '../audit/service.js';
import { inviteUser } from '../first-login/invite.js';
import { canUsePlatform } from '../platforms/access.js';
import type { RouteDeps } from '../route-deps.js';
import { findUserById } from '../users/repository.js';
import { normalizeSearch } from '../users/search-key.js';
import { requireAdmin } from './guard.js';

const errors = {
  400: errorEnvelopeSchema,
  401: errorEnvelopeSchema,
  403: errorEnvelopeSchema,
  404: errorEnvelopeSchema,
  409: errorEnvelopeSchema,
};
// The largest character that sorts after any search key: `[q, q + END)` is a prefix range.
const END = '\uffff';

/** Admin: find users (indexed prefix searches, paginated), invite, unlock. */
export const adminUsersRoutes: FastifyPluginAsyncZod<RouteDeps> = async (
  app,
  { ctx, requireSession, nudgeOutbox },
) => {
  app.get(
    '/api/admin/users',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Search users by name, e-mail or identifier (prefix), with their access per platform',
        querystring: userSearchQuerySchema,
        response: { 200: userSearchResultSchema, ...errors },
      },
    },
    async (request) => {
      await requireAdmin(requireSession, request);
      const { q, status, page, pageSize } = request.query;
      const term = normalizeSearch(q);
      const compact = q.replace(/\s+/g, '');
      const phone = /^[+\d][\d\s.]{5,}$/.test(q) ? normalizeMobilePhone(q) : null;
      // Every branch is an index range or equality: email, search_name, ins, (type, id), phone.
      const rows = await ctx.db
        .selectFrom('users')
        .select([
          'id',
          'email',
          'first_name',
          'last_name',
          'profile',
          'status',
          'ins',
          'professional_id',
          'created_at',
        ])
        .$if(term !== '', (qb) =>
          qb.where((eb) =>
            eb.or([
              eb.and([eb('email', '>=', term), eb('email', '<', term + END)]),
              eb.and([eb('search_name', '>=', term), eb('search_name', '<', term + END)]),
              eb('ins', '=', compact.toUpperCase()),
              eb.and([
                eb('professional_id_type', 'in', [
                  'RPPS',
                  'ADELI',
                  'FINESS',
                  'SIRET',
                  'SIREN',
                  'DRASS',
                ]),
                eb('professional_id', '=', compact),
              ]),
              ...(phone ? [eb('phone', '=', phone)] : []),
            ]),
          ),
        )
        .$if(status !== undefined, (qb) => qb.where('status', '=', status ?? 'active'))
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .limit(pageSize + 1)
        .offset((page - 1) * pageSize)
        .execute();
      const items = rows.slice(0, pageSize);
      const ids = items.map((r) => r.id);
      const [platforms, access] = await Promise.all([
        ctx.db
          .selectFrom('platforms')
          .select(['id', 'name', 'access_policy'])
          .orderBy('name')
          .execute(),
        ids.length
          ? ctx.db
              .selectFrom('platform_access')
              .select(['user_id', 'platform_id', 'status'])
              .where('user_id', 'in', ids)
              .execute()
          : Promise.resolve([]),
      ]);
      const result: AdminUser[] = items.map((r) => ({
        id: r.id,
        name: [r.first_name, r.last_name].filter(Boolean).join(' '),
        email: r.email,
        type: r.profile,
        status: r.status,
        identifier: r.ins ?? r.professional_id,
        createdAt: new Date(r.created_at).toISOString(),
        platforms: platforms.map((p) => {
          const status =
            access.find((a) => a.user_id === r.id && a.platform_id === p.id)?.status ?? null;
          return {
            platformId: p.id,
            name: p.name,
            usable: canUsePlatform(p.access_policy, status),
            status,
          };
        }),
      }));
      return { items: result, page, pageSize, hasMore: rows.length > pageSize };
    },
  );

  app.post(
    '/api/admin/users/:id/unlock',
    {
      schema: {
        tags: ['admin'],
        summary: 'Unlock a locked account (and clear its sign-in throttle)',
        params: z.object({ id: z.string().min(1).max(64) }),
        response: { 200: okSchema, ...errors },
      },
    },
    async (request) => {
      const admin = await requireAdmin(requireSession, request);
      const user = await findUserById(ctx.db, request.params.id);
      if (!user || user.status !== 'locked') throw new AppError('not_found');
      await ctx.db.transaction().execute(async (trx) => {
        await trx
          .updateTable('users')
          .set({ status: 'active', updated_at: ctx.clock.now() })
          .where('id', '=', user.id)
          .execute();
        await trx.deleteFrom('throttles').where('key', '=', `login:user:${user.id}`).execute();
        await recordAudit(trx, ctx.clock, {
          action: 'account_unlocked',
          actorId: admin.user_id,
          targetId: user.id,
          ip: request.ip,
        });
      });
      return { ok: true as const };
    },
  );

  app.post(
    '/api/admin/invitations',
    {
      schema: {
        tags: ['admin'],
        summary: 'Invite a person: creates the account and e-mails the first-login link',
        body: invitationInputSchema,
        response: { 201: invitationResultSchema, ...errors },
      },
    },
    async (request, reply) => {
      const admin = await requireAdmin(requireSession, request);
      const { userId } = await inviteUser(ctx, {
        email: request.body.email,
        firstName: request.body.firstName ?? null,
        lastName: request.body.lastName ?? null,
        profile: request.body.profile ?? null,
        admin: request.body.admin ?? false,
        language: request.language,
        brand: request.brand,
        invitedBy: admin.user_id,
      });
      nudgeOutbox();
      return reply.code(201).send({ userId });
    },
  );
};
