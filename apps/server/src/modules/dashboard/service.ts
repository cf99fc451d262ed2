import type { Dashboard, Support } from '@hygie/domain';
import type { AppContext } from '../../context.js';
import { together } from '../../db/transaction.js';
import { AppError } from '../../lib/app-error.js';
import { phoneRequired } from '../auth/service.js';
import { countTrustedDevices } from '../devices/service.js';
import { loadSettings } from '../settings/service.js';
import { findUserById } from '../users/service.js';

/** How long before expiry the dashboard starts warning about the password. */
const PASSWORD_WARNING_MS = 14 * 24 * 60 * 60_000;

/** What needs my attention: an unverified phone, a password about to expire, new terms. */
export async function dashboardOf(ctx: AppContext, userId: string): Promise<Dashboard> {
  // Read together, in one write to the database (db/transaction.ts `together`).
  const [user, settings, trustedDevices] = await together(ctx.db, (db) =>
    Promise.all([
      findUserById(db, userId),
      loadSettings(ctx, db),
      countTrustedDevices(ctx, userId, db),
    ]),
  );
  if (!user) throw new AppError('not_logged_in');
  const now = ctx.clock.now();
  const attention: Dashboard['attention'] = [];
  if (!phoneRequired(user) && user.phone_verified_at === null) {
    attention.push({ kind: 'phone_unverified' });
  }
  const delay = settings.PASSWORD_EXPIRATION_DELAY;
  const expiresAt =
    delay !== null && user.password_changed_at !== null
      ? user.password_changed_at + delay * 1000
      : null;
  if (expiresAt !== null && expiresAt - now < PASSWORD_WARNING_MS) {
    attention.push({ kind: 'password_expiring', at: new Date(expiresAt).toISOString() });
  }
  // New terms published during this session: they are asked for at the next sign-in.
  if (user.cgu_version !== settings.CGU_VERSION) attention.push({ kind: 'terms_to_accept' });
  return {
    attention,
    trustedDevices,
    passwordExpiresAt: expiresAt === null ? null : new Date(expiresAt).toISOString(),
  };
}

/** The support contact, from configuration (public). */
export function supportContact(ctx: AppContext): Support {
  const { config } = ctx;
  return {
    contact: config.support.name,
    phone: config.support.phone,
    mail: config.contactEmail,
    website: config.support.website,
    headOffice: config.support.headOffice,
    usefulLinks: config.support.links,
  };
}
