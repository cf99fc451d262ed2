import type { FastifyRequest } from 'fastify';
import { AppError } from '../../lib/app-error.js';
import type { RequireSession } from '../../plugins/authenticate.js';
import { parseRoles } from '../users/present.js';

/** A complete session of an admin, else 401/403 (every admin route calls it). */
export async function requireAdmin(requireSession: RequireSession, request: FastifyRequest) {
  const session = await requireSession(request);
  if (!parseRoles(session.user.roles).includes('admin')) throw new AppError('forbidden');
  return session;
}
