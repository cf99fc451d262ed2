import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorEnvelopeSchema, okSchema } from '@hygie/domain';
import { z } from 'zod';
import type { RouteDeps } from '../route-deps.js';
import { decideAccount } from './service.js';

const params = z.object({ id: z.string().min(1).max(64) });
const errors = { 401: errorEnvelopeSchema, 403: errorEnvelopeSchema, 404: errorEnvelopeSchema };

/** Account validation: a professional's identity is checked by an admin before the first sign-in. */
export const adminAccountsRoutes: FastifyPluginAsyncZod<RouteDeps> = async (
  app,
  { ctx, requireAdmin, nudgeOutbox },
) => {
  for (const decision of ['validate', 'reject'] as const) {
    app.post(
      `/api/admin/users/:id/${decision}`,
      {
        schema: {
          tags: ['admin'],
          summary:
            decision === 'validate'
              ? 'Validate a pending professional account'
              : 'Reject a pending professional account',
          params,
          response: { 200: okSchema, ...errors },
        },
      },
      async (request) => {
        const admin = await requireAdmin(request);
        await decideAccount(ctx, request.params.id, decision, {
          userId: admin.user_id,
          ip: request.ip,
          brand: request.brand,
        });
        nudgeOutbox();
        return { ok: true as const };
      },
    );
  }
};
