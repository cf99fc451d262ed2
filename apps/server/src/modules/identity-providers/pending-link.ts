import { z } from 'zod';
import type { UpstreamIdentity } from './claims.js';
import { seal, unseal } from './transaction.js';

/**
 * An identity a provider asserted that is linked to no account yet, waiting while the person
 * proves an account with the portal's password sign-in: kept by the browser in a short-lived
 * HttpOnly cookie, sealed like the transaction (docs/identity-providers.md says why a cookie).
 */
export interface PendingLink {
  provider: string;
  identity: UpstreamIdentity;
  acr: string | null;
  createdAt: number;
  expiresAt: number;
}

/** How long the person has to prove the account (password, second factor, other stages). */
export const PENDING_LINK_TTL_MS = 15 * 60_000;

const identitySchema = z.object({
  subject: z.string(),
  givenName: z.string().nullable(),
  familyName: z.string().nullable(),
  professional: z
    .object({
      nationalId: z.string(),
      rpps: z.string().nullable(),
      professions: z.array(z.string()),
    })
    .nullable(),
  pivot: z
    .object({
      birthDate: z.string().nullable(),
      gender: z.enum(['female', 'male']).nullable(),
      birthPlace: z.string().nullable(),
      birthCountry: z.string().nullable(),
      // Absent from a cookie sealed before the used name was kept.
      usedFamilyName: z.string().nullable().default(null),
    })
    .nullable(),
});

const pendingLinkSchema = z.object({
  provider: z.string(),
  identity: identitySchema,
  acr: z.string().nullable(),
  createdAt: z.number(),
  expiresAt: z.number(),
});

export function sealPendingLink(secret: string, pending: PendingLink): string {
  return seal(secret, 'pending link', pending);
}

/** The pending link a cookie holds, or null when absent, altered or garbled (expiry not checked). */
export function openPendingLink(
  secret: string,
  value: string | null | undefined,
): PendingLink | null {
  return unseal(secret, 'pending link', pendingLinkSchema, value);
}
