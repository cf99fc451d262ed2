import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { platformOfClient } from '../platforms/service.js';
import { findArtefactsOfAccount } from './repository.js';

/** What the provider stores of a grant that this view reads (epoch seconds). */
const grantPayload = z.object({
  clientId: z.string(),
  openid: z.object({ scope: z.string() }).optional(),
  iat: z.number().optional(),
  exp: z.number().optional(),
});

export interface Consent {
  clientId: string;
  /** The platform's name; null when the platform was deleted since. */
  platform: string | null;
  scopes: string[];
  grantedAt: string | null;
  expiresAt: string | null;
}

/** The grants a user holds with platforms (what they consented to), live ones only. */
export async function consentsOf(ctx: AppContext, accountId: string): Promise<Consent[]> {
  const nowSeconds = ctx.clock.now() / 1000;
  const grants = (await findArtefactsOfAccount(ctx.db, accountId, 'Grant'))
    .map((payload) => grantPayload.safeParse(JSON.parse(payload)))
    .flatMap((parsed) => (parsed.success ? [parsed.data] : []))
    .filter((grant) => grant.exp === undefined || grant.exp > nowSeconds);
  const iso = (seconds: number | undefined) =>
    seconds === undefined ? null : new Date(seconds * 1000).toISOString();
  return Promise.all(
    grants.map(async (grant) => ({
      clientId: grant.clientId,
      platform: (await platformOfClient(ctx, grant.clientId))?.name ?? null,
      scopes: grant.openid?.scope.split(' ').filter(Boolean) ?? [],
      grantedAt: iso(grant.iat),
      expiresAt: iso(grant.exp),
    })),
  );
}
