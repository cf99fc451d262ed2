import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Dashboard } from '@hygie/domain';
import { dashboardSchema, errorEnvelopeSchema, supportSchema } from '@hygie/domain';
import { AppError } from '../../lib/app-error.js';
import type { RouteDeps } from '../route-deps.js';
import { phoneRequired } from '../auth/service.js';
import { loadSettings } from '../settings/service.js';
import { findUserById } from '../users/repository.js';

/** How long before expiry the dashboard starts warning about the password. */
const PASSWORD_WARNING_MS = 14 * 24 * 60 * 60_000;

/** The dashboard's "needs your attention" and the support contact (from configuration). */
export const dashboardRoutes: FastifyPluginAsyncZod<RouteDeps> = async (
  app,
  { ctx, requireSession },
) => {
  app.get(
    '/api/dashboard',
    {
      schema: {
        tags: ['account'],
        summary: 'What needs my attention',
        response: { 200: dashboardSchema, 401: errorEnvelopeSchema, 403: errorEnvelopeSchema },
      },
    },
    async (request): Promise<Dashboard> => {
      const session = await requireSession(request);
      const [user, settings, devices] = await Promise.all([
        findUserById(ctx.db, session.user_id),
        loadSettings(ctx),
        ctx.db
          .selectFrom('trusted_devices')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('user_id', '=', session.user_id)
          .where('expires_at', '>', ctx.clock.now())
          .executeTakeFirst(),
      ]);
      if (!user) throw new AppError('not_logged_in');
      const attention: Dashboard['attention'] = [];
      if (!phoneRequired(user) && user.phone_verified_at === null)
        attention.push({ kind: 'phone_unverified' });
      const delay = settings.PASSWORD_EXPIRATION_DELAY;
      const expiresAt =
        delay !== null && user.password_changed_at !== null
          ? user.password_changed_at + delay * 1000
          : null;
      if (expiresAt !== null && expiresAt - ctx.clock.now() < PASSWORD_WARNING_MS) {
        attention.push({ kind: 'password_expiring', at: new Date(expiresAt).toISOString() });
      }
      // New terms published during this session: they are asked for at the next sign-in.
      if (user.cgu_version !== settings.CGU_VERSION) attention.push({ kind: 'terms_to_accept' });
      const trusted = Number(devices?.n ?? 0);
      return {
        attention,
        trustedDevices: trusted,
        passwordExpiresAt: expiresAt === null ? null : new Date(expiresAt).toISOString(),
      };
    },
  );

  app.get(
    '/api/support',
    {
      schema: {
        tags: ['account'],
        summary: 'The support contact (public)',
        response: { 200: supportSchema },
      },
    },
    async () => ({
      contact: ctx.config.support.name,
      phone: ctx.config.support.phone,
      mail: ctx.config.contactEmail,
      website: ctx.config.support.website,
      headOffice: ctx.config.support.headOffice,
      usefulLinks: ctx.config.support.links,
    }),
  );
};
