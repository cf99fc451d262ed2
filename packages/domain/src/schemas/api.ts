import { z } from 'zod';
import { LIMITS } from '../constants.js';
import { currentUserMiniSchema } from './session.js';

export { errorEnvelopeSchema } from '../error-envelope.js';
export type { ErrorEnvelope } from '../error-envelope.js';

/** POST /api/login. `username` is an e-mail, a mobile phone, an INS or an RPPS. */
export const loginInputSchema = z.object({
  username: z.string().trim().min(1).max(LIMITS.usernameMax),
  password: z.string().min(1).max(LIMITS.passwordMax),
  trustDevice: z.boolean().optional(),
});
export type LoginInput = z.infer<typeof loginInputSchema>;

/**
 * The current user as a classic zod object, for the server, which extends it: the fields are
 * `currentUserMiniSchema`'s (session.ts), the one the web's first screens parse.
 */
export const currentUserSchema = z.object(currentUserMiniSchema.shape);

/** GET /api/health and /api/ready. */
export const healthSchema = z.object({ status: z.enum(['ok', 'unavailable']) });
